package tui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// skein FILE --entry ID (the command skein search prints) opens the
// session with that entry in focus, and says so when it has no such entry.
func TestOpenAtAnEntry(t *testing.T) {
	path, _ := filepath.Abs(filepath.Join(fixtureStore, "--home-dev-webapp--", "2026-03-03T14-00-00-000Z_019cb3ff-9f00-75a9-b935-ef0a4c00fbb4.jsonl"))
	for _, id := range []string{"d20164ee", "0e4e266f"} {
		m := New(Options{Roots: []string{filepath.Dir(path)}, Home: "/home/dev", Open: path, OpenAt: id})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		run(m, openFile(path, m.opts.OpenAt))
		ss := m.session
		if ss == nil || ss.s == nil {
			t.Fatal("the session did not open")
		}
		f := ss.msgs.focus
		if f < 0 || f >= len(ss.msgs.items) {
			t.Fatalf("%s: focus %d of %d", id, f, len(ss.msgs.items))
		}
		if got := ss.s.Entry(ss.msgs.items[f].Message.Entry).ID; got != id || ss.focus != paneMessages {
			t.Errorf("--entry %s: the focus is on %s (pane %v)", id, got, ss.focus)
		}
		if !strings.Contains(plain(m), "Cache: Redis vs SQLite") {
			t.Errorf("the screen:\n%s", plain(m))
		}
	}
	m := New(Options{Roots: []string{filepath.Dir(path)}, Home: "/home/dev", Open: path, OpenAt: "nothere"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	run(m, openFile(path, "nothere"))
	if !strings.Contains(plain(m), "no entry nothere in this session") {
		t.Errorf("an unknown entry: no note\n%s", plain(m))
	}
}
