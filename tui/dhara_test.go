package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"skein/internal/synth"
)

var dharaStore = filepath.Join("..", "testdata", "dhara", "store")

// A store of Dhara session folders and pi files: both listed; a Dhara
// session opens with its branches and its calls in their message.
func TestDharaAndPiStore(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore, dharaStore)
	v := m.View().Content
	for _, name := range []string{"Paginate GET /orders", "Flaky payment retry test"} {
		found := false
		for _, r := range m.list.rows {
			found = found || strings.HasPrefix(title(r.info), name)
		}
		if !found {
			t.Fatalf("%q is not listed:\n%s", name, v)
		}
	}
	if len(m.list.rows) < 8+10 {
		t.Errorf("%d sessions listed", len(m.list.rows))
	}
	openFixture(t, m, "Paginate GET /orders")
	v = m.View().Content
	for _, want := range []string{"├⊟", "└⊟", "◂ leaf", "Now document it in the README."} {
		if !strings.Contains(v, want) {
			t.Errorf("the branched session lacks %q:\n%s", want, v)
		}
	}
	run(m, press(m, "esc"))
	openFixture(t, m, "Flaky payment retry test")
	v = strings.ReplaceAll(ansi.Strip(m.View().Content), "  ", " ")
	// The calls under the message that made them, then their results.
	at := strings.Index(v, "Let me read the test and the retry helper.")
	if at < 0 {
		t.Fatalf("the assistant's message is not on screen:\n%s", v)
	}
	text := v[at:]
	call := strings.Index(text, "→ read payments/retry_test.go")
	result := strings.Index(text, "← read")
	if call < 0 || result < call || strings.Contains(text[:call], "▍") {
		t.Errorf("the calls are not in their message, before the results:\n%s", v)
	}
}

// A terminal grown wide enough for the preview loads it (it stayed on
// "loading…" until the selection moved).
func TestPreviewAfterResize(t *testing.T) {
	m := loaded(t, 80, 24, true, fixtureStore)
	_, cmd := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if cmd == nil {
		t.Fatal("no preview asked for")
	}
	due, ok := cmd().(previewDueMsg)
	if !ok {
		t.Fatalf("%T, want a previewDueMsg", cmd())
	}
	_, load := m.Update(due)
	run(m, load)
	if v := m.View().Content; strings.Contains(v, "loading…") {
		t.Errorf("the preview is still loading:\n%s", v)
	}
}

// A write on a session of a format skein only reads offers to import it
// first; yes writes it into Dhara's store and lists it.
func TestImportFirst(t *testing.T) {
	m, home := openClaudeTODOs(t)
	run(m, press(m, "L"))
	if len(m.dialogs) == 0 || !strings.Contains(ansi.Strip(m.View().Content), "Import it first?") {
		t.Fatalf("no offer to import:\n%s", ansi.Strip(m.View().Content))
	}
	run(m, press(m, "y"))
	found, _ := filepath.Glob(filepath.Join(home, ".dhara", "sessions", "*", "meta.json"))
	if len(found) != 1 {
		t.Fatalf("imported: %v", found)
	}
	listed := false
	for _, r := range m.list.rows {
		listed = listed || r.info.Path == filepath.Dir(found[0])
	}
	if !listed {
		t.Error("the imported session is not listed")
	}
}

// x exports the session (h html, m markdown, j Dhara's JSON) where the
// user says: a dialog holds the path, by default in ~/Downloads and named
// after the session's title, never in the folder skein was started in (a
// git clone here); enter writes it, a file there is replaced after a yes.
// It wrote skein-<id>.<ext> into the working folder, unasked.
func TestExportKeys(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o700)
	home := t.TempDir()
	downloads := filepath.Join(home, "Downloads")
	os.Mkdir(downloads, 0o700)
	t.Setenv("HOME", home)
	store, _ := filepath.Abs(dharaStore)
	t.Chdir(dir)
	m := loaded(t, 120, 40, true, store)
	openFixture(t, m, "Paginate GET /orders")
	for _, k := range []string{"j", "m", "h", "h"} {
		run(m, press(m, "x"))
		if !strings.Contains(ansi.Strip(m.View().Content), "Export the session") {
			t.Fatalf("x: no export dialog:\n%s", ansi.Strip(m.View().Content))
		}
		run(m, press(m, k))
		ext := map[string]string{"j": "json", "m": "md", "h": "html"}[k]
		want := filepath.Join(downloads, "Paginate GET orders 2026-07-09."+ext) // named after its title and day
		if v := ansi.Strip(m.View().Content); !strings.Contains(v, want) {
			t.Fatalf("%s: the path asked is not %s:\n%s", k, want, v)
		}
		run(m, press(m, "enter"))
		if _, err := os.Stat(want); err == nil && strings.Contains(ansi.Strip(m.View().Content), "Replace the file?") {
			run(m, press(m, "y")) // the second html: the first is there
		}
		if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Exported") {
			t.Fatalf("%s: not exported:\n%s", k, v)
		}
		if _, err := os.Stat(want); err != nil {
			t.Errorf("%s: %v", k, err)
		}
		run(m, press(m, "esc"))
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Errorf("the working folder (a clone) gained files: %v", names)
	}
	// A path typed: written there, in the clone since the user says so.
	run(m, press(m, "x"))
	run(m, press(m, "m"))
	for range len(filepath.Join(downloads, "Paginate GET orders 2026-07-09.md")) {
		press(m, "backspace")
	}
	press(m, "n", "o", "t", "e", ".", "m", "d")
	run(m, press(m, "enter"))
	if _, err := os.Stat(filepath.Join(dir, "note.md")); err != nil {
		t.Errorf("the path typed: %v\n%s", err, ansi.Strip(m.View().Content))
	}
	run(m, press(m, "esc"))
	// The dialog's keys are in the key map: ? shows them.
	press(m, "?")
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "x h") || !strings.Contains(v, "x m") || !strings.Contains(v, "x j") {
		t.Errorf("the help does not show the export's keys:\n%s", v)
	}
}

// openClaudeTODOs opens Claude Code's "Find the TODOs" log from a copy of
// testdata/claude in a new home's project folder (no Dhara home set): a
// read-only session whose writes import it first.
func openClaudeTODOs(t *testing.T) (*Model, string) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("DHARA_HOME", "")
	projects := filepath.Join(home, ".claude", "projects", "-path-to-Demo")
	if err := synth.CopyTree(filepath.Join("..", "testdata", "claude"), projects); err != nil {
		t.Fatal(err)
	}
	m := loaded(t, 120, 40, true, filepath.Join(home, ".claude", "projects"))
	openFixture(t, m, "Find the TODOs")
	return m, home
}
