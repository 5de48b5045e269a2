package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"skein/store"
	"skein/tui"
)

// plainFile is a session copied into a folder that is no agent's: its
// name there, where it comes from, the format it must be read as, and a
// word that occurs in it and in none of the others.
type plainFile struct {
	name, src, format, word string
}

// The sessions of TestFormatsFoundByContent. The Claude Code and Codex
// logs are real (testdata/claude/README.md and testdata/codex/README.md
// say where from, via ../shared/samples/); the sub-agent's log is copied
// without the session it belongs to, and the Codex rollout under a name
// that says nothing of Codex.
var plainFiles = []plainFile{
	{"1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl", "../testdata/claude/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl", "claude", "TodoWrite"},
	{"rewind-compact.jsonl", "../testdata/claude/rewind-compact.jsonl", "claude", "TestTable"},
	{"agent-test-hash-123.jsonl", "../testdata/claude/agent-test-hash-123.jsonl", "claude", "suite"},
	{"codex-session.jsonl", "../testdata/codex/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl", "codex", "purpuse"},
	{"release.jsonl", "../testdata/pi/store/--home-dev-tools--/2026-03-07T10-00-00-000Z_019cc7bd-5500-71f0-a318-9338ec3f5702.jsonl", "pi", "Freeze"},
}

// copyPlain copies files into a new folder that is no agent's.
func copyPlain(t *testing.T, files []plainFile) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "plain")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f.src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Sessions of every agent in a plain folder are read as what they are,
// not as pi's: listed with their format (cold and through the list's
// index), searched, checked by doctor, refused a write as read-only with
// the way to import them, and opened by skein FILE.
func TestFormatsFoundByContent(t *testing.T) {
	dir := copyPlain(t, plainFiles)
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")

	var first string
	for round := range 2 { // cold, then through the index
		out, errs, code := skeinIn(t, home, "session", "list", "--json", dir)
		if code != 0 || errs != "" {
			t.Fatalf("list, round %d: exit %d, %s", round, code, errs)
		}
		var infos []struct{ Path, Format string }
		if err := json.Unmarshal([]byte(out), &infos); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, in := range infos {
			got[filepath.Base(in.Path)] = in.Format
		}
		for _, f := range plainFiles {
			if got[f.name] != f.format {
				t.Errorf("round %d: %s listed as %q, want %q", round, f.name, got[f.name], f.format)
			}
		}
		if len(infos) != len(plainFiles) {
			t.Errorf("round %d: %d sessions listed, want %d:\n%s", round, len(infos), len(plainFiles), out)
		}
		if round == 1 && out != first {
			t.Errorf("the list through the index differs:\n%s\n%s", out, first)
		}
		first = out
	}

	for _, f := range plainFiles {
		out, _, code := skeinIn(t, home, "search", "--json", f.word, dir)
		var hits []struct{ Path, Format string }
		json.Unmarshal([]byte(out), &hits)
		if code != 0 || len(hits) == 0 {
			t.Errorf("search %s: exit %d, no hit: %s", f.word, code, out)
			continue
		}
		for _, h := range hits {
			if filepath.Base(h.Path) != f.name || h.Format != f.format {
				t.Errorf("search %s: a hit in %s (%s), want only %s", f.word, h.Path, h.Format, f.name)
			}
		}
	}

	out, _, code := skeinIn(t, home, "doctor", dir)
	if code != 0 || !strings.Contains(out, strconv.Itoa(len(plainFiles))+" sessions checked, 0 problems") || strings.Contains(out, "not a pi session") {
		t.Errorf("doctor: exit %d:\n%s", code, out)
	}

	claude := filepath.Join(dir, plainFiles[1].name)
	before, _ := os.ReadFile(claude)
	_, errs, code := skeinIn(t, home, "session", "label", claude, "a2", "x")
	if code != 1 || !strings.Contains(errs, "read-only") || !strings.Contains(errs, "import") || strings.Contains(errs, "header") {
		t.Errorf("label of a Claude Code log: exit %d: %s", code, errs)
	}
	if after, _ := os.ReadFile(claude); string(after) != string(before) {
		t.Error("the Claude Code log changed")
	}

	records, left := listInTUI(t, dir, len(plainFiles))
	if len(left) > 0 || len(records) != len(plainFiles) {
		t.Errorf("the TUI lists %d sessions, %d files left out: %v", len(records), len(left), left)
	}
	for _, f := range plainFiles {
		path := filepath.Join(dir, f.name)
		if shown, format := openInTUI(t, path); shown != path || format != f.format {
			t.Errorf("skein %s showed %q as %q", f.name, shown, format)
		}
	}
}

// A sub-agent's log beside the session it belongs to is shown with it,
// not as a session of its own, wherever the two lie.
func TestSubAgentWithItsSession(t *testing.T) {
	dir := copyPlain(t, []plainFile{
		{"agent-test-hash-123.jsonl", "../testdata/claude/agent-test-hash-123.jsonl", "claude", ""},
		{"5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl", "../testdata/claude/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl", "claude", ""},
	})
	out, errs, code := skein(t, "session", "list", "--json", dir)
	if code != 0 || errs != "" || strings.Contains(out, "agent-test-hash-123") || !strings.Contains(out, "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl") {
		t.Errorf("exit %d %s:\n%s", code, errs, out)
	}
	// Alone, it opens as a session of its own.
	os.Remove(filepath.Join(dir, "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"))
	out, _, _ = skein(t, "session", "list", "--json", dir)
	if !strings.Contains(out, "agent-test-hash-123") {
		t.Errorf("alone, the sub-agent's log is not listed:\n%s", out)
	}
}

// openInTUI runs the UI as skein FILE sets it up, until the session is
// read, and says which session it shows and as what format.
func openInTUI(t *testing.T, path string) (shown, format string) {
	t.Helper()
	undoOneShot(t)
	opts, cleanup, err := tuiOptions([]string{path}, false, store.OSEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if opts.Open != path || len(opts.Roots) != 1 || opts.Roots[0] != filepath.Dir(path) {
		t.Fatalf("skein FILE: open %q on %v", opts.Open, opts.Roots)
	}
	opts.NoColor = true
	w := watch(tui.New(opts), func(m *tui.Model) bool { _, _, read := m.Showing(); return read })
	tm := teatest.NewTestModel(t, w, teatest.WithInitialTermSize(120, 40))
	w.wait(t, "the session to be read")
	tm.Quit()
	m := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*watched).Model
	shown, format, read := m.Showing()
	if !read {
		t.Errorf("skein %s: the session is not read", path)
	}
	return shown, format
}

// listInTUI runs the UI as skein DIR sets it up, until the scan has listed
// n sessions, and says what the list holds and left out.
func listInTUI(t *testing.T, dir string, n int) ([]store.Info, []store.Problem) {
	t.Helper()
	undoOneShot(t)
	opts, cleanup, err := tuiOptions([]string{dir}, false, store.OSEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	opts.NoColor = true
	w := watch(tui.New(opts), func(m *tui.Model) bool { _, _, scanning := m.Listed(); return !scanning })
	tm := teatest.NewTestModel(t, w, teatest.WithInitialTermSize(120, 40))
	w.wait(t, "the scan to end")
	tm.Quit()
	m := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*watched).Model
	records, left, scanning := m.Listed()
	if scanning {
		t.Error("the list was still scanning")
	}
	return records, left
}

// watched is the UI, told after each message whether what a test waits
// for has happened (asked in Update's goroutine, where the model may be
// read): the screen alone can say it only through the renderer's diffs of
// one frame against the last, which depend on how frames fell.
type watched struct {
	*tui.Model
	ready func(*tui.Model) bool
	done  chan struct{}
	once  sync.Once
}

func watch(m *tui.Model, ready func(*tui.Model) bool) *watched {
	return &watched{Model: m, ready: ready, done: make(chan struct{})}
}

func (w *watched) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := w.Model.Update(msg)
	if w.ready(w.Model) {
		w.once.Do(func() { close(w.done) })
	}
	return w, cmd
}

func (w *watched) wait(t *testing.T, what string) {
	t.Helper()
	select {
	case <-w.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("waited 30 s for %s", what)
	}
}

// undoOneShot gives the collector back its defaults: the commands run in
// this process (skeinIn) turned it off for one-shot work under a memory
// limit, which the UI, a long-lived program, never runs with.
func undoOneShot(t *testing.T) {
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
}
