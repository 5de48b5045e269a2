package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"skein/store"
)

// Keys typed at once: every key is pressed before any command's message
// comes back, as when a person types faster than the program answers (or
// pastes). A dialog a key opens must take the key typed right after it,
// whatever kind of dialog it is; no key may reach the screen the dialog is
// about to cover, and none may be lost.

// atOnce presses keys with no command run between them, then runs the
// commands they gave, in order. It returns them.
func atOnce(m *Model, keys ...string) []tea.Cmd {
	cmds := make([]tea.Cmd, len(keys))
	for i, k := range keys {
		cmds[i] = press(m, k)
	}
	for _, c := range cmds {
		run(m, c)
	}
	return cmds
}

// filesBeside counts the files in the folder of path.
func filesBeside(t *testing.T, path string) int {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// The confirmation (f then y): the fork is written.
func TestTypedAtOnceFork(t *testing.T) {
	m := loaded(t, 120, 40, true, storeCopy(t))
	openFixture(t, m, "Cache: Redis vs SQLite")
	path := m.session.info.Path
	before := filesBeside(t, path)
	atOnce(m, "f", "y")
	if n := filesBeside(t, path); n != before+1 {
		t.Fatalf("%d files beside the session, want %d: f then y did not fork", n, before+1)
	}
	if d := dlg(m); d == nil || d.title != "Forked" {
		t.Errorf("after f y: %+v", d)
	}
}

// enter on the list, then f and y: the session screen that enter opens
// takes them (it keeps them while it loads), not the list it covers.
func TestTypedAtOnceOpenThenFork(t *testing.T) {
	m := loaded(t, 120, 40, true, storeCopy(t))
	for title(m.list.selected()) != "Cache: Redis vs SQLite" {
		press(m, "j")
	}
	path := m.list.selectedPath()
	before := filesBeside(t, path)
	atOnce(m, "enter", "f", "y")
	if m.session == nil || m.session.info.Path != path {
		t.Fatal("enter did not open the session")
	}
	if n := filesBeside(t, path); n != before+1 {
		t.Fatalf("%d files beside the session, want %d: enter f y did not fork", n, before+1)
	}
}

// The line of text (L, a label, enter): the label is written on the entry
// in focus.
func TestTypedAtOnceLabel(t *testing.T) {
	m := loaded(t, 120, 40, true, storeCopy(t))
	openFixture(t, m, "Health endpoint")
	path, sel := m.session.info.Path, m.session.target()
	atOnce(m, "L", "n", "e", "w", "enter")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if l, _ := s.Label(sel); l != "new" {
		t.Errorf("label %q, want \"new\": the keys after L went elsewhere", l)
	}
}

// The same dialog for the name (R, more text, enter).
func TestTypedAtOnceRename(t *testing.T) {
	m := loaded(t, 120, 40, true, storeCopy(t))
	openFixture(t, m, "Health endpoint")
	path, name := m.session.info.Path, m.session.s.Name()
	atOnce(m, "R", "!", "enter")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name() != name+"!" {
		t.Errorf("name %q, want %q", s.Name(), name+"!")
	}
}

// The dialog of choices (x then h): the export dialog takes h; the tree
// does not fold.
func TestTypedAtOnceExport(t *testing.T) {
	root := storeCopy(t)
	t.Chdir(t.TempDir()) // where the export goes
	m := loaded(t, 120, 40, true, root)
	openFixture(t, m, "Cache: Redis vs SQLite")
	atOnce(m, "x", "h")
	for _, d := range m.dialogs {
		if d.frame().title == "Export the session" {
			t.Fatal("x then h: the export dialog is still waiting for its key")
		}
	}
	if len(m.session.tree.view.Folded) > 0 {
		t.Errorf("h reached the tree: folded %v", m.session.tree.view.Folded)
	}
}

// The overlays (S, ! then esc): esc closes them, not the session beneath.
func TestTypedAtOnceOverlays(t *testing.T) {
	for _, k := range []string{"S", "!"} {
		m := loaded(t, 120, 40, true, fixtureStore)
		openFixture(t, m, "Health endpoint")
		atOnce(m, k, "esc")
		if m.session == nil || m.top() != nil {
			t.Errorf("%s esc: session open %v, dialog %v", k, m.session != nil, m.top())
		}
	}
	// On the list, q after S closes the stats and does not quit.
	m := loaded(t, 120, 40, true, fixtureStore)
	cmds := atOnce(m, "S", "q")
	if isQuit(cmds[1]) || m.top() != nil {
		t.Errorf("S q on the list: quit %v, dialog %v", isQuit(cmds[1]), m.top())
	}
}

// The dialog that waits for work (c, then - eleven times, then enter): the
// keys typed while the plan is made go to the plan's dialog, each - plans
// again, and enter summarizes the last plan.
func TestTypedAtOnceCompaction(t *testing.T) {
	t.Setenv("SKEIN_SUMMARIZER", "extractive")
	m := loaded(t, 120, 40, true, storeCopy(t))
	openFixture(t, m, "Health endpoint")
	keys := []string{"c"}
	for range 11 {
		keys = append(keys, "-")
	}
	atOnce(m, append(keys, "enter")...)
	if editorOf(m) == nil || !strings.Contains(editorOf(m).Value(), "## Goal") {
		t.Fatalf("c, - ×11, enter did not reach the summary: %+v", dlg(m))
	}
}

// A dialog opened over a dialog (esc in an edited summary asks; y
// answers): the question takes the y, not the editor.
func TestTypedAtOnceDialogOverADialog(t *testing.T) {
	t.Setenv("SKEIN_SUMMARIZER", "extractive")
	m := loaded(t, 120, 40, true, storeCopy(t))
	openFixture(t, m, "Health endpoint")
	run(m, press(m, "c"))
	for range 11 {
		accept(t, m, "-")
	}
	accept(t, m, "enter")
	if editorOf(m) == nil {
		t.Fatalf("no editor: %+v", dlg(m))
	}
	run(m, press(m, "x")) // an edit
	atOnce(m, "esc", "y")
	if d := dlg(m); d != nil {
		t.Errorf("esc y left a dialog open: %q", d.title)
	}
}

// The offer to import a read-only session first (L then y): the import is
// written.
func TestTypedAtOnceImportFirst(t *testing.T) {
	m, home := openClaudeTODOs(t)
	atOnce(m, "L", "y")
	found, _ := filepath.Glob(filepath.Join(home, ".dhara", "sessions", "*", "meta.json"))
	if len(found) != 1 {
		t.Fatalf("L then y imported %v, want one session", found)
	}
}

// The session is read between f and y: the keys it kept while it loaded
// are given back before y, which the fork dialog then takes.
func TestTypedAtOnceKeysKeptWhileLoadingComeFirst(t *testing.T) {
	m := loaded(t, 120, 40, true, storeCopy(t))
	for title(m.list.selected()) != "Cache: Redis vs SQLite" {
		press(m, "j")
	}
	path := m.list.selectedPath()
	before := filesBeside(t, path)
	load := press(m, "enter")
	press(m, "f") // kept: the session is loading
	var read tea.Msg
	for _, msg := range msgsOf(load) {
		if lm, ok := msg.(sessionLoadedMsg); ok {
			read = lm
		}
	}
	if read == nil {
		t.Fatal("enter did not read the session")
	}
	_, after := m.Update(read)
	y := press(m, "y")
	run(m, y)
	run(m, after)
	if n := filesBeside(t, path); n != before+1 {
		t.Fatalf("%d files beside the session, want %d: y came before the f kept while loading", n, before+1)
	}
}

// msgsOf runs cmd and returns its messages, those of a batch one by one.
func msgsOf(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	b, ok := msg.(tea.BatchMsg)
	if !ok {
		return []tea.Msg{msg}
	}
	var out []tea.Msg
	for _, c := range b {
		out = append(out, msgsOf(c)...)
	}
	return out
}
