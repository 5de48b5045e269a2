package tui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"skein/internal/synth"
	"skein/model"
)

// A note clears itself; an error shows its whole reason, wrapped, and stays
// until a key dismisses it, and that key does nothing else.
func TestNotesAndErrors(t *testing.T) {
	m := loaded(t, 40, 12, true, fixtureStore)
	_, tick := m.Update(statusMsg("path copied"))
	if m.statusText != "path copied" || tick == nil {
		t.Fatalf("note %q", m.statusText)
	}
	m.Update(statusClearMsg{m.statusID}) // what the tick sends
	if m.statusText != "" {
		t.Errorf("a note stayed: %q", m.statusText)
	}
	reason := "the session changed while the summary was made (its leaf is no longer a1b2c3d4); nothing was written, compact again (/home/dev/.pi/agent/sessions/--home-dev-webapp--/2026-03-02T09-00-00-000Z_0f6a.jsonl)"
	run(m, showError("", errors.New(reason)))
	run(m, func() tea.Msg { return statusClearMsg{m.statusID} })
	view := plain(m)
	joined := strings.Join(strings.Fields(view), "")
	if !strings.Contains(joined, strings.Join(strings.Fields(reason), "")) {
		t.Fatalf("the whole reason is not on screen:\n%s", view)
	}
	for _, l := range strings.Split(view, "\n") {
		if len([]rune(l)) > 40 {
			t.Fatalf("a line wider than the terminal: %q", l)
		}
	}
	selected := m.list.cursor
	run(m, press(m, "j"))
	if m.errText != "" || m.list.cursor != selected {
		t.Errorf("after a key: error %q, cursor %d (was %d)", m.errText, m.list.cursor, selected)
	}
	run(m, press(m, "j"))
	if m.list.cursor == selected {
		t.Error("the next key did nothing")
	}
}

// A damaged file says so in its header and ! lists its problems as doctor
// does; in the list, ! shows the files left out and why.
func TestProblemsOfFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"garbage.jsonl", "orphans.jsonl"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "pi", "broken", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	// A Claude Code log is read as what it is, wherever it lies; a file
	// of no format skein reads is left out.
	os.WriteFile(filepath.Join(dir, "claude.jsonl"), []byte(`{"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"hi"}}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.jsonl"), []byte(`{"note":"not a session"}`+"\n"), 0o644)
	m := loaded(t, 120, 40, true, dir)
	if v := plain(m); !strings.Contains(v, "1 file left out (!)") {
		t.Fatalf("the list does not say a file was left out:\n%s", v)
	}
	run(m, press(m, "!"))
	if d := dlg(m); d == nil || !strings.Contains(d.body, "notes.jsonl: ") || strings.Contains(d.body, "claude.jsonl") {
		t.Fatalf("left-out dialog: %+v", d)
	}
	press(m, "esc")
	for m.list.selected() != nil && filepath.Base(m.list.selected().Path) != "garbage.jsonl" {
		before := m.list.cursor
		press(m, "j")
		if m.list.cursor == before {
			t.Fatal("garbage.jsonl is not listed")
		}
	}
	run(m, press(m, "enter"))
	if v := plain(m); !strings.Contains(v, "problem") || !strings.Contains(v, "(! lists them)") {
		t.Fatalf("the header has no warning:\n%s", v)
	}
	run(m, press(m, "!"))
	d := dlg(m)
	if d == nil || !strings.Contains(d.body, "garbage.jsonl:4: malformed JSON") {
		t.Fatalf("problems dialog: %+v", d)
	}
}

// A copied message is its text: no header line, no thinking.
func TestCopyText(t *testing.T) {
	m := model.Message{Role: model.RoleAssistant, Model: "claude", Blocks: []model.Block{
		{Type: model.BlockThinking, Text: "let me think"},
		{Type: model.BlockText, Text: "First part."},
		{Type: model.BlockToolCall, Call: model.ToolCall{Name: "read", Input: []byte(`{"path":"a"}`)}},
		{Type: model.BlockText, Text: "Second part."},
	}}
	if got := copyText(&m); got != "First part.\n\nSecond part." {
		t.Errorf("copied %q", got)
	}
	calls := model.Message{Role: model.RoleAssistant, Blocks: []model.Block{{Type: model.BlockToolCall, Call: model.ToolCall{Name: "read", Input: []byte(`{"path":"a"}`)}}}}
	if got := copyText(&calls); got != `read {"path":"a"}` {
		t.Errorf("copied %q", got)
	}
	bash := model.Message{Role: model.RoleBashExecution, Command: "ls", Output: "a\nb"}
	if got := copyText(&bash); got != "$ ls\na\nb" {
		t.Errorf("copied %q", got)
	}
}

// A click selects the row under it and focuses its pane; the replay's
// footer and help are its own keys.
func TestClicksAndReplayHelp(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	run(m, func() tea.Msg { return tea.MouseClickMsg{X: 5, Y: 5, Button: tea.MouseLeft} })
	if m.list.cursor != m.list.offset+2 {
		t.Errorf("a click on the list's third row selected row %d", m.list.cursor)
	}
	openFixture(t, m, "Cache: Redis vs SQLite")
	ss := m.session
	ss.setFocus(paneMessages)
	run(m, func() tea.Msg { return tea.MouseClickMsg{X: 3, Y: 4, Button: tea.MouseLeft} })
	if ss.focus != paneTree || ss.tree.cursor != ss.tree.offset+1 {
		t.Errorf("a click on the tree's second row: focus %v, cursor %d", ss.focus, ss.tree.cursor)
	}
	run(m, func() tea.Msg { return tea.MouseClickMsg{X: 80, Y: 4, Button: tea.MouseLeft} })
	if ss.focus != paneMessages || ss.msgs.focus != ss.msgs.itemAt(1) {
		t.Errorf("a click on a message: focus %v, item %d", ss.focus, ss.msgs.focus)
	}
	run(m, press(m, "r"))
	if ss.replay == nil {
		t.Fatal("no replay")
	}
	ss.replay.playing = false
	if f := footer(m); !strings.Contains(f, "play/pause") || !strings.Contains(f, "leave the replay") {
		t.Errorf("the replay's footer: %q", f)
	}
	press(m, "?")
	if v := plain(m); !strings.Contains(v, "first step") || !strings.Contains(v, "slower") || strings.Contains(v, "fork here") {
		t.Errorf("the replay's help:\n%s", v)
	}
}

// Help that is taller than the terminal scrolls: every key can be read.
func TestHelpScrolls(t *testing.T) {
	m := loaded(t, 40, 12, true, fixtureStore)
	openFixture(t, m, "Cache: Redis vs SQLite")
	press(m, "?")
	seen := map[string]bool{}
	for range 80 {
		for _, l := range strings.Split(plain(m), "\n") {
			seen[strings.TrimSpace(l)] = true
		}
		press(m, "j")
	}
	all := strings.Join(mapKeys(seen), "\n")
	for _, want := range []string{"fork here", "keep more tokens", "copy path", "tree filter", "shift+drag"} {
		if !strings.Contains(all, want) {
			t.Errorf("scrolling help never showed %q", want)
		}
	}
	if !strings.Contains(plain(m), "j/k scroll") {
		t.Error("no note that help scrolls")
	}
}

func mapKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// 50 rows down a long tree at 80x24: the selected row is on screen and
// highlighted across the pane's whole width, in colour and without.
func TestSelectionStaysOnScreen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.jsonl")
	if err := synth.Session(path, "/home/dev/long", 256<<10, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 3); err != nil {
		t.Fatal(err)
	}
	for _, noColor := range []bool{false, true} {
		m := New(Options{Roots: []string{filepath.Dir(path)}, Home: "/home/dev", NoColor: noColor})
		m.list.now = func() time.Time { return fixedNow }
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		for cmd := scanStore(m.opts.Roots); cmd != nil; {
			sm, ok := cmd().(scanMsg)
			if !ok {
				break
			}
			m.list.add(sm)
			if sm.finished {
				break
			}
			cmd = waitScan(sm.next)
		}
		run(m, press(m, "enter"))
		ss := m.session
		if ss == nil || ss.s == nil || len(ss.tree.view.Rows) < 60 {
			t.Fatal("the session did not open, or its tree is short")
		}
		press(m, "g")
		for range 50 {
			run(m, press(m, "j"))
		}
		if ss.tree.cursor != 50 {
			t.Fatalf("cursor at row %d", ss.tree.cursor)
		}
		want := ss.tree.row(ss.tree.cursor) // the selected row as drawn
		sel := ansi.Strip(want)
		var line string
		for _, l := range strings.Split(m.View().Content, "\n") {
			if strings.Contains(ansi.Strip(l), strings.TrimRight(sel, " ")) {
				line = l
			}
		}
		if line == "" {
			t.Fatalf("noColor %v: the selected row is not on screen:\n%s", noColor, plain(m))
		}
		if lipgloss.Width(sel) != ss.tree.width {
			t.Errorf("noColor %v: the highlight is %d wide, the pane %d", noColor, lipgloss.Width(sel), ss.tree.width)
		}
		hl := m.styles.Selected.Render("x")
		if on := hl[:strings.Index(hl, "x")]; !strings.Contains(line, on) || !strings.HasPrefix(want, on) {
			t.Errorf("noColor %v: the selected row is not drawn with the selection style %q: %q", noColor, on, line)
		}
	}
}

// The highlight of a selected row is not cut short by the styles of the
// text under it: no reset inside it.
func TestSelectionOverStyledText(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	hl := m.styles.Selected.Render("x")
	on := hl[:strings.Index(hl, "x")]
	check := func(where string) {
		t.Helper()
		for _, l := range strings.Split(m.View().Content, "\n") {
			i := strings.Index(l, on)
			if i < 0 {
				continue
			}
			inner := l[i+len(on):]
			end := strings.Index(inner, "\x1b[m")
			if end < 0 || strings.Contains(inner[:end], "\x1b[") {
				t.Errorf("%s: a style inside the highlight: %q", where, l)
			}
			return
		}
		t.Errorf("%s: no highlighted row", where)
	}
	check("list")
	openFixture(t, m, "Cache: Redis vs SQLite")
	check("tree")
}

// A dialog wraps a long path without losing a character, at every width.
func TestDialogsWrapLongPaths(t *testing.T) {
	for _, w := range []int{40, 60, 80} {
		m := loaded(t, w, 30, true, fixtureStore)
		path := m.list.selectedPath()
		run(m, press(m, "d"))
		if dlg(m) == nil {
			t.Fatal("no dialog")
		}
		var b strings.Builder
		for _, l := range strings.Split(plain(m), "\n") {
			if lipgloss.Width(l) > w {
				t.Errorf("at %d columns a line is %d wide", w, lipgloss.Width(l))
			}
			// The box's inside: between its two borders (the screen
			// beneath shows on either side of it).
			if i, j := strings.Index(l, "│"), strings.LastIndex(l, "│"); i >= 0 && j > i {
				b.WriteString(l[i+len("│") : j])
			}
		}
		flat := strings.ReplaceAll(b.String(), " ", "")
		if want := strings.ReplaceAll(shortPath(path, "/home/dev"), " ", ""); !strings.Contains(flat, want) {
			t.Errorf("at %d columns the path %q is not whole in:\n%s", w, want, plain(m))
		}
	}
}

// At 40x12 a dialog whose text is long still shows its title and its keys.
func TestSmallDialogsKeepTheirKeys(t *testing.T) {
	m := loaded(t, 40, 12, true, fixtureStore)
	run(m, press(m, "d"))
	if v := plain(m); !strings.Contains(v, "enter/y: yes") || !strings.Contains(v, "Move this session") || !strings.Contains(v, "╰") {
		t.Errorf("the delete dialog at 40x12:\n%s", v)
	}
	press(m, "esc")
	openFixture(t, m, "Cache: Redis vs SQLite")
	run(m, press(m, "f"))
	if v := plain(m); !strings.Contains(v, "esc/n: no") || !strings.Contains(v, "╰") {
		t.Errorf("the fork dialog at 40x12:\n%s", v)
	}
}

// Keys that cannot do anything say why instead of nothing.
func TestKeysSayWhyTheyDidNothing(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	openFixture(t, m, "Health endpoint")
	run(m, press(m, "G"))
	run(m, press(m, "]"))
	if !strings.Contains(m.statusText, "no branch point below") {
		t.Errorf("] at the end: %q", m.statusText)
	}
	press(m, "tab")
	run(m, press(m, "/"))
	typeText(m, "zzzqqq")
	run(m, press(m, "enter"))
	run(m, press(m, "n"))
	if !strings.Contains(m.statusText, "no match") {
		t.Errorf("n without a match: %q", m.statusText)
	}
}
