package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/store"
)

// Issue 22, point 5: "Import it first?" then yes imports the read-only
// session, opens the copy at the entry the action was asked at and goes
// on with the action there: L then y ends in the label dialog, on the
// copy. Asked again on the original, it opens the same copy, and the list
// tells the copy from the original.
func TestImportFirstGoesOnOnTheCopy(t *testing.T) {
	m, home := openClaudeTODOs(t)
	original := m.session.info.Path
	before, _ := os.ReadFile(original)
	asked := m.session.s.Entry(m.session.target()).ID
	run(m, press(m, "L"))
	run(m, press(m, "y"))
	found, _ := filepath.Glob(filepath.Join(home, ".dhara", "sessions", "*", "meta.json"))
	if len(found) != 1 {
		t.Fatalf("imported: %v", found)
	}
	copyDir := filepath.Dir(found[0])
	if m.session == nil || m.session.info.Path != copyDir {
		t.Fatalf("the screen is not on the copy: %v", m.session.info.Path)
	}
	if dlg(m) == nil || dlg(m).title != "Label" {
		t.Fatalf("the label dialog did not come: %+v", dlg(m))
	}
	if got := m.session.s.Entry(m.session.target()).ID; got != asked {
		t.Errorf("the copy is open at %s, the action was asked at %s", got, asked)
	}
	accept(t, m, "m", "i", "n", "e", "enter")
	s, err := store.Open(copyDir)
	if err != nil {
		t.Fatal(err)
	}
	if i, ok := s.Index(asked); !ok {
		t.Errorf("no entry %s in the copy", asked)
	} else if l, _ := s.Label(i); l != "mine" {
		t.Errorf("the copy's label is %q", l)
	}
	if after, _ := os.ReadFile(original); string(after) != string(before) {
		t.Error("the original changed")
	}

	// Again, from the original: the same copy, opened, the dialog there.
	press(m, "q")
	openPath(t, m, original)
	run(m, press(m, "L"))
	run(m, press(m, "y"))
	if m.session.info.Path != copyDir || dlg(m) == nil || dlg(m).title != "Label" {
		t.Fatalf("asked again: on %s, dialog %+v", m.session.info.Path, dlg(m))
	}
	if found, _ := filepath.Glob(filepath.Join(home, ".dhara", "sessions", "*", "meta.json")); len(found) != 1 {
		t.Errorf("imported again: %v", found)
	}
	press(m, "esc", "q")
	marked := 0
	for _, l := range strings.Split(plain(m), "\n") {
		if strings.Contains(l, "Find the TODOs (import") {
			marked++
		}
	}
	if marked != 1 {
		t.Errorf("the copy's row does not say it is an import:\n%s", plain(m))
	}
}

// openPath opens the listed session at path.
func openPath(t *testing.T, m *Model, path string) {
	t.Helper()
	for i, r := range m.list.rows {
		if r.info.Path == path {
			m.list.cursor = i
			run(m, press(m, "enter"))
			return
		}
	}
	t.Fatalf("%s is not listed", path)
}
