package tui

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"skein/store/convert"
)

// evilName is a file name that clears the screen and sets the window
// title, were it printed raw.
const evilName = "\x1b[2J\x1b]0;pwned\x07"

// sgr is a Select Graphic Rendition sequence: the only escapes styling
// writes.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// write makes a file of text at path, its folders too.
func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyFixture copies a file of ../testdata into dir.
func copyFixture(t *testing.T, fixture, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", fixture))
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, filepath.Base(fixture))
	write(t, dst, string(b))
	return dst
}

// openPicker presses i on the list of m, the picker in dir, and reads the
// folder.
func openPicker(t *testing.T, m *Model, dir string) *filePicker {
	t.Helper()
	m.opts.Cwd = dir
	run(m, press(m, "i"))
	p, ok := m.top().(*filePicker)
	if !ok {
		t.Fatalf("i opened no picker:\n%s", plain(m))
	}
	return p
}

func pickedNames(p *filePicker) []string {
	var out []string
	for _, e := range p.entries {
		out = append(out, e.name)
	}
	return out
}

// A file named with escape sequences is shown escaped: the picker's View
// holds no ESC but its styles' own, in the row selected or not, and a
// symbolic link shows its name, never its target's.
func TestPickerEscapesNames(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, evilName), "x")
	write(t, filepath.Join(dir, "a.json"), "{}")
	if err := os.Symlink(filepath.Join(dir, evilName), filepath.Join(dir, "z-link")); err != nil {
		t.Fatal(err)
	}
	m := loaded(t, 120, 40, true, fixtureStore)
	p := openPicker(t, m, dir)
	if got := pickedNames(p); !slices.Equal(got, []string{evilName, "a.json", "z-link"}) {
		t.Fatalf("listed %q", got)
	}
	for i := range p.entries {
		p.cursor = i
		v := m.View().Content
		if rest := sgr.ReplaceAllString(v, ""); strings.Contains(rest, "\x1b") {
			t.Fatalf("an ESC that is not styling reaches the terminal (cursor on %d):\n%q", i, rest)
		}
		if strings.Contains(v, "\x07") || strings.Contains(v, "pwned\x07") {
			t.Fatalf("a BEL reaches the terminal:\n%q", v)
		}
		text := ansi.Strip(v)
		if !strings.Contains(text, "␛[2J␛]0;pwned␇") {
			t.Fatalf("the name is not shown escaped:\n%s", text)
		}
		if strings.Count(text, "pwned") != 1 {
			t.Errorf("the link shows its target:\n%s", text)
		}
	}
}

// The picker lists regular files and folders, folders first; a socket is
// left out, hidden files until . shows them; l and enter go into a folder,
// h back up onto it, and esc and q close it with nothing imported.
func TestPickerNavigates(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "b.jsonl"), "x")
	write(t, filepath.Join(dir, "A.txt"), "x")
	write(t, filepath.Join(dir, ".hidden"), "x")
	write(t, filepath.Join(dir, "sub", "inner.json"), "x")
	write(t, filepath.Join(dir, "zdir", "deeper", "f"), "x")
	if ln, err := net.Listen("unix", filepath.Join(dir, "sock")); err == nil {
		defer ln.Close()
	}
	m := loaded(t, 120, 40, true, fixtureStore)
	p := openPicker(t, m, dir)
	if got := pickedNames(p); !slices.Equal(got, []string{"sub", "zdir", "A.txt", "b.jsonl"}) {
		t.Fatalf("listed %q", got)
	}
	if v := plain(m); !strings.Contains(v, "sub/") || !strings.Contains(v, "2 folders · 2 files") || !strings.Contains(v, "q/esc: close") {
		t.Errorf("the picker:\n%s", v)
	}
	run(m, press(m, "."))
	plain(m) // View fits the line of keys to the box
	if got := pickedNames(p); !slices.Contains(got, ".hidden") || !strings.Contains(p.hint, "hide hidden files") {
		t.Errorf(". shows %q", got)
	}
	run(m, press(m, "."))
	run(m, press(m, "j"))
	run(m, press(m, "l")) // into zdir
	if p.dir != filepath.Join(dir, "zdir") || !slices.Equal(pickedNames(p), []string{"deeper"}) {
		t.Fatalf("l: in %s, %q", p.dir, pickedNames(p))
	}
	run(m, press(m, "enter")) // a folder: into it
	if p.dir != filepath.Join(dir, "zdir", "deeper") {
		t.Fatalf("enter on a folder: in %s", p.dir)
	}
	run(m, press(m, "backspace"))
	run(m, press(m, "h"))
	if p.dir != dir || p.selected().name != "zdir" {
		t.Fatalf("h: in %s on %v", p.dir, p.selected())
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	run(m, cmd)
	if p.dir != filepath.Dir(dir) || p.selected().name != filepath.Base(dir) {
		t.Fatalf("left: in %s on %v", p.dir, p.selected())
	}
	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	run(m, cmd)
	if p.dir != dir {
		t.Fatalf("right: in %s", p.dir)
	}
	run(m, press(m, "G"))
	if p.selected().name != "b.jsonl" {
		t.Errorf("G: on %v", p.selected())
	}
	for _, k := range []string{"esc", "q"} {
		press(m, k)
		if m.top() != nil || len(m.writes) > 0 {
			t.Fatalf("%s: the picker is open, or an import started", k)
		}
		p = openPicker(t, m, dir)
	}
}

// Keys pressed while a folder is read are applied to it once it is read,
// in order: l, j, enter goes into the folder and picks its second file.
func TestPickerKeysWaitForTheFolder(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "sub", "one"), "x")
	write(t, filepath.Join(dir, "sub", "two"), "x")
	m := loaded(t, 120, 40, true, fixtureStore)
	p := openPicker(t, m, dir)
	var chosen string
	p.choose = func(path string) tea.Cmd { chosen = path; return nil }
	read := press(m, "l") // not read yet
	press(m, "j")
	press(m, "enter")
	if p.dir != dir || chosen != "" {
		t.Fatalf("keys applied before the folder was read: %s, %q", p.dir, chosen)
	}
	run(m, read)
	if chosen != filepath.Join(dir, "sub", "two") || m.top() != nil {
		t.Errorf("chose %q; picker open: %v", chosen, m.top() != nil)
	}
}

// A folder that cannot be read says why on one line and the picker stays
// where it was.
func TestPickerUnreadableFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every folder")
	}
	dir := t.TempDir()
	locked := filepath.Join(dir, "locked")
	write(t, filepath.Join(locked, "f"), "x")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	m := loaded(t, 120, 40, true, fixtureStore)
	p := openPicker(t, m, dir)
	run(m, press(m, "l"))
	if p.dir != dir || !strings.Contains(plain(m), "cannot read the folder") {
		t.Errorf("in %s:\n%s", p.dir, plain(m))
	}
}

// The status line after an import, for each outcome.
func TestImportStatus(t *testing.T) {
	home := "/home/dev"
	dir := func(id string) string { return home + "/.dhara/sessions/" + id }
	for _, c := range []struct {
		results []convert.Result
		err     error
		want    string
	}{
		{[]convert.Result{{Path: dir("a1"), Format: "openai"}}, nil, "imported f.json as openai into ~/.dhara/sessions/a1"},
		{[]convert.Result{{Path: dir("a1"), Format: "openai", Already: true}}, nil, "already imported: ~/.dhara/sessions/a1"},
		{[]convert.Result{{Path: dir("b2"), Format: "claude", Earlier: dir("a1")}}, nil, "the file changed since it was imported into ~/.dhara/sessions/a1: imported anew"},
		{[]convert.Result{{Path: dir("a1")}, {Path: dir("b2")}, {Path: dir("c3")}}, nil, "imported 3 conversations"},
		{[]convert.Result{{Path: dir("a1")}, {Path: dir("b2"), Already: true}}, nil, "imported 1 conversation (1 already imported)"},
		{[]convert.Result{{Path: dir("a1"), Already: true}, {Path: dir("b2"), Already: true}}, nil, "already imported: 2 conversations"},
		{[]convert.Result{{Path: dir("a1")}, {Path: dir("b2")}}, errors.New("disk full"), "imported 2 conversations · then failed: disk full"},
		{nil, convert.ErrUnknownFormat, "import failed: f.json: its format is none skein knows"},
	} {
		if got := importStatus("f.json", c.results, c.err, home); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// i, a file, enter: the file is imported into Dhara's store (the Env's
// DHARA_HOME, a temporary folder), listed, selected and opened, the status
// saying so; the same file again is already imported; a file that is no
// session says why on the status line. In a running program.
func TestFlowImport(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("DHARA_HOME", filepath.Join(home, ".dhara"))
	root := filepath.Join(home, ".dhara", "sessions")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	exports := filepath.Join(home, "exports")
	copyFixture(t, "openai/tool-call.json", filepath.Join(exports, "openai"))
	write(t, filepath.Join(exports, "notes.txt"), "not a session\n")

	m := New(Options{Roots: []string{root}, Home: home, Cwd: exports})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	waitFor(t, tm, "no sessions found")
	tm.Type("i")
	waitFor(t, tm, "Import a session from a file", "openai/", "notes.txt")
	tm.Type("l")
	waitFor(t, tm, "tool-call.json")
	keys(tm, tea.KeyPressMsg{Code: tea.KeyEnter})
	// The status, and the session opened (one wait: each reads on from
	// where the last stopped, and one frame may hold both).
	waitFor(t, tm, "imported tool-call.json as openai into ~/.dhara/sessions/", "It is 18 °C in Paris.")
	found, _ := filepath.Glob(filepath.Join(root, "*", "meta.json"))
	if len(found) != 1 {
		t.Fatalf("Dhara sessions after the import: %v", found)
	}
	session := filepath.Dir(found[0])

	// Again: already imported, and selected and opened again.
	keys(tm, tea.KeyPressMsg{Code: tea.KeyEscape})
	waitFor(t, tm, "sort: modified")
	tm.Type("il")
	waitFor(t, tm, "tool-call.json")
	keys(tm, tea.KeyPressMsg{Code: tea.KeyEnter})
	// (The renderer keeps the path, which was on the line before, and
	// deletes what is left of the old text before it: only the new words
	// are written.)
	waitFor(t, tm, "already imported: ")
	keys(tm, tea.KeyPressMsg{Code: tea.KeyEscape})
	waitFor(t, tm, "sort: modified")

	// esc closes the picker; a file that is no session is one line.
	tm.Type("i")
	waitFor(t, tm, "Import a session from a file")
	keys(tm, tea.KeyPressMsg{Code: tea.KeyEscape})
	waitFor(t, tm, "sort: modified")
	tm.Type("ij")
	keys(tm, tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "import failed: notes.txt: its format is none skein knows")
	keys(tm, tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	if final.top() != nil || final.errText != "" {
		t.Errorf("a dialog or an error is open: %v %q", final.top(), final.errText)
	}
	if final.screen != screenList || final.list.selectedPath() != session {
		t.Errorf("screen %v, selected %q, want %q", final.screen, final.list.selectedPath(), session)
	}
	if n := len(final.list.infos); n != 1 {
		for _, in := range final.list.infos {
			t.Logf("%q %q", in.Path, in.Name)
		}
		t.Errorf("%d sessions listed, want 1", n)
	}
	if found, _ = filepath.Glob(filepath.Join(root, "*", "meta.json")); len(found) != 1 {
		t.Errorf("Dhara sessions at the end: %v", found)
	}
}

// An import finishing while the list is filtered to something else clears
// the filter, so that the session it selects is shown.
func TestImportShowsThroughAFilter(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("DHARA_HOME", filepath.Join(home, ".dhara"))
	src := copyFixture(t, "claude/rewind-compact.jsonl", filepath.Join(home, "in"))
	m := loaded(t, 120, 40, true, fixtureStore)
	press(m, "/")
	typeText(m, "redis")
	press(m, "enter")
	run(m, importFile(src, home))
	found, _ := filepath.Glob(filepath.Join(home, ".dhara", "sessions", "*", "meta.json"))
	if len(found) != 1 {
		t.Fatalf("imported: %v", found)
	}
	if m.list.filter != "" || m.screen != screenSession || m.session.info.Path != filepath.Dir(found[0]) {
		t.Errorf("filter %q, screen %v, session %v", m.list.filter, m.screen, m.session)
	}
	if !strings.Contains(m.statusText, "imported rewind-compact.jsonl as claude into ~/.dhara/sessions/") {
		t.Errorf("status %q", m.statusText)
	}
}

// i while an import runs says so and opens no picker: two imports of one
// file at once would both write it.
func TestOneImportAtATime(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	m.Update(writeStartedMsg{w: &writing{what: "importing x.json", importing: true}, next: make(chan tea.Msg)})
	if v := plain(m); !strings.Contains(v, "importing x.json…") {
		t.Errorf("no progress in the footer:\n%s", v)
	}
	run(m, press(m, "i"))
	if m.top() != nil || !strings.Contains(m.statusText, "an import is under way") {
		t.Errorf("picker open: %v; status %q", m.top() != nil, m.statusText)
	}
}
