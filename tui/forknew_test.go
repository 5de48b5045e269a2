package tui

import (
	"strings"
	"testing"
)

// Issue 22, point 12: after a fork the list selects it, the fork dialog's
// o opens it, and "(+1 fork)" stays on its source's row when the title is
// cut.
func TestTheForkJustMade(t *testing.T) {
	m := loaded(t, 80, 24, true, storeCopy(t))
	openFixture(t, m, "Cache: Redis vs SQLite")
	src := m.session.info.Path
	run(m, press(m, "f"))
	accept(t, m, "y")
	if dlg(m) == nil || !strings.Contains(dlg(m).hint, "o: open it") {
		t.Fatalf("the fork dialog offers no way to open it: %+v", dlg(m))
	}
	fork := ""
	for _, in := range m.list.infos {
		if in.ParentSession != "" && in.Path != src {
			fork = in.Path
		}
	}
	if fork == "" {
		t.Fatal("the fork is not listed")
	}
	if got := m.list.selectedPath(); got != fork {
		t.Errorf("the list selects %s, not the fork", got)
	}
	run(m, press(m, "o"))
	if m.session == nil || m.session.info.Path != fork || m.session.s == nil {
		t.Fatalf("o did not open the fork: %+v", m.session.info.Path)
	}
	if dlg(m) != nil {
		t.Errorf("a dialog stays open: %s", dlg(m).title)
	}
	press(m, "q")
	if got := m.list.selectedPath(); got != fork {
		t.Errorf("back on the list, %s is selected, not the fork", got)
	}
	// The source's row keeps its suffix when its title is cut.
	for _, in := range m.list.infos {
		if in.Path == src {
			in.Name = "A name long enough to be cut in any column this list gives its titles"
		}
	}
	m.list.rebuild()
	row := ""
	for _, l := range strings.Split(plain(m), "\n") {
		if strings.Contains(l, "A name long") {
			row = l
		}
	}
	if !strings.Contains(row, "(+1 fork)") {
		t.Errorf("the suffix is cut: %q", row)
	}
}
