package tui

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"skein/store"
	"skein/theme"
)

var fixtureStore = filepath.Join("..", "testdata", "pi", "store")

// fixedNow makes relative times in views stable.
var fixedNow = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

// loaded builds the root model over roots and runs the store scan to its end,
// as the program would, without a terminal.
func loaded(t testing.TB, w, h int, dark bool, roots ...string) *Model {
	t.Helper()
	m := New(Options{Roots: roots, Home: "/home/dev"})
	m.list.now = func() time.Time { return fixedNow }
	m.statusTTL = time.Millisecond
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	if !dark {
		m.Update(tea.BackgroundColorMsg{Color: lightBG{}})
	}
	cmd := scanStore(roots)
	for cmd != nil {
		msg := cmd()
		if msg == nil {
			break
		}
		sm := msg.(scanMsg)
		m.list.add(sm)
		if sm.finished {
			break
		}
		cmd = waitScan(sm.next)
	}
	return m
}

type lightBG struct{}

func (lightBG) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

func press(m *Model, keys ...string) tea.Cmd {
	var last tea.Cmd
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "tab":
			msg = tea.KeyPressMsg{Code: tea.KeyTab}
		case "backspace":
			msg = tea.KeyPressMsg{Code: tea.KeyBackspace}
		case "ctrl+c":
			msg = tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
		default:
			r := []rune(k)
			msg = tea.KeyPressMsg{Code: r[0], Text: k}
		}
		_, last = m.Update(msg)
	}
	return last
}

// run executes a command and feeds what it returns back, as the program
// would, following batches; ticks are skipped.
func run(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			run(m, c)
		}
	case nil, previewDueMsg, statusClearMsg:
	default:
		_, next := m.Update(msg)
		run(m, next)
	}
}

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func plain(m *Model) string { return ansi.Strip(m.View().Content) }

func TestListFilterSortAndQuit(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	if got := len(m.list.rows); got != 19 {
		t.Fatalf("%d rows, want 19", got)
	}
	// The newest first; pi's forks nest under their source.
	if r := m.list.rows[0]; r.info.Name != "Release notes 1.1.0" {
		t.Errorf("first row %q", r.info.Name)
	}
	forks := 0
	for _, r := range m.list.rows {
		if r.depth > 0 {
			forks++
		}
	}
	if forks != 5 { // pi 0.73.1's fork, the tools fork, pi 1.6.0's /fork, /clone and --fork
		t.Errorf("%d nested forks, want 5", forks)
	}
	// While the filter is typed, q is a letter.
	press(m, "/", "c", "a", "c", "h", "e", "q")
	if !m.list.typing || m.list.filter != "cacheq" {
		t.Errorf("typing %v filter %q", m.list.typing, m.list.filter)
	}
	press(m, "backspace")
	if len(m.list.rows) != 1 || m.list.rows[0].info.Name != "Cache: Redis vs SQLite" {
		t.Fatalf("filtered rows: %v", names(m))
	}
	// Enter ends typing and keeps the filter; Enter again opens.
	press(m, "enter")
	if m.list.typing || m.list.filter != "cache" || m.screen != screenList {
		t.Fatalf("after enter: typing %v filter %q screen %v", m.list.typing, m.list.filter, m.screen)
	}
	run(m, press(m, "enter"))
	if m.screen != screenSession || m.session == nil || m.session.s == nil {
		t.Fatalf("not opened: screen %v", m.screen)
	}
	if v := plain(m); !strings.Contains(v, "Start over: what is a cache?") {
		t.Errorf("last user message not on screen:\n%s", v)
	}
	// q goes back, esc clears the filter, s sorts, q quits.
	press(m, "q")
	if m.screen != screenList || m.list.filter != "cache" {
		t.Fatalf("back: screen %v filter %q", m.screen, m.list.filter)
	}
	press(m, "esc")
	if m.list.filter != "" || len(m.list.rows) != 19 {
		t.Errorf("esc: filter %q rows %d", m.list.filter, len(m.list.rows))
	}
	press(m, "s", "s", "s")
	if m.list.sort != sortName || m.list.rows[0].info.Name != "Cache: Redis vs SQLite" {
		t.Errorf("sort %v first %q", m.list.sort, title(m.list.rows[0].info))
	}
	if !isQuit(press(m, "q")) {
		t.Error("q on the list does not quit")
	}
}

func names(m *Model) []string {
	var out []string
	for _, r := range m.list.rows {
		out = append(out, title(r.info))
	}
	return out
}

func TestProjectFilter(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	for m.list.selected().Cwd != "/home/dev/webapp" {
		press(m, "j")
	}
	press(m, "p")
	if len(m.list.rows) != 3 {
		t.Errorf("project rows: %v", names(m))
	}
	press(m, "p")
	if len(m.list.rows) != 19 {
		t.Errorf("project off: %d rows", len(m.list.rows))
	}
}

// openFixture opens the named session from the fixture store.
func openFixture(t testing.TB, m *Model, name string) {
	t.Helper()
	for i, r := range m.list.rows {
		if strings.HasPrefix(title(r.info), name) {
			m.list.cursor = i
			run(m, press(m, "enter"))
			if m.session == nil || m.session.s == nil {
				t.Fatalf("%s did not open", name)
			}
			return
		}
	}
	t.Fatalf("no session %q in %v", name, names(m))
}

func TestSessionKeys(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	openFixture(t, m, "Cache: Redis vs SQLite")
	ss := m.session
	if ss.focus != paneTree || ss.tree.selected() != ss.s.Leaf() {
		t.Fatalf("focus %v, selection %d, leaf %d", ss.focus, ss.tree.selected(), ss.s.Leaf())
	}
	// Moving in the tree moves the message pane to the selection's path.
	press(m, "G")
	sel := ss.tree.selected()
	if ss.msgs.leaf != sel {
		t.Errorf("message pane at %d, selection %d", ss.msgs.leaf, sel)
	}
	press(m, "g")
	if ss.msgs.leaf != ss.tree.selected() || ss.tree.cursor != 0 {
		t.Errorf("g: cursor %d", ss.tree.cursor)
	}
	// ] jumps to the next branch point, h folds it, l unfolds.
	press(m, "]")
	bp := ss.tree.selected()
	if !ss.tree.view.IsBranchPoint(bp) {
		t.Fatalf("] went to %d, not a branch point", bp)
	}
	// As in pi, a branch folds at its first entry, below the branch point.
	press(m, "j")
	first := ss.tree.selected()
	rows := len(ss.tree.view.Rows)
	press(m, "h")
	if !ss.tree.view.Folded[first] || len(ss.tree.view.Rows) >= rows {
		t.Errorf("fold: %d rows (was %d)", len(ss.tree.view.Rows), rows)
	}
	press(m, "l")
	if ss.tree.view.Folded[first] || len(ss.tree.view.Rows) != rows {
		t.Errorf("unfold: %d rows", len(ss.tree.view.Rows))
	}
	// F cycles pi's filters. The selection stays on its entry, or goes to
	// the nearest one the filter shows: never to the leaf.
	press(m, "F")
	if f := ss.tree.view.Filter; f.String() != "no-tools" {
		t.Errorf("filter %v", f)
	}
	if sel := ss.tree.selected(); sel > first || sel == ss.s.Leaf() {
		t.Errorf("F moved the selection from %d to %d (leaf %d)", first, sel, ss.s.Leaf())
	}
	press(m, "F", "F", "F", "F")
	if f := ss.tree.view.Filter; f.String() != "default" {
		t.Errorf("filter cycle ends at %v", f)
	}
	press(m, "G") // back to the leaf, for the messages below
	// Tab gives the messages focus; n/N step through them.
	press(m, "tab")
	if ss.focus != paneMessages {
		t.Fatal("tab did not switch focus")
	}
	press(m, "G")
	last := ss.msgs.focus
	press(m, "N", "N")
	if ss.msgs.focus != last-2 {
		t.Errorf("N N: focus %d, want %d", ss.msgs.focus, last-2)
	}
	press(m, "n")
	if ss.msgs.focus != last-1 {
		t.Errorf("n: focus %d", ss.msgs.focus)
	}
	// t shows thinking, e expands, y copies: all without error.
	press(m, "t", "e")
	if !ss.msgs.thinking || !ss.msgs.expanded[ss.msgs.items[ss.msgs.focus].Entry] {
		t.Error("t/e did not toggle")
	}
	if cmd := press(m, "y"); cmd == nil {
		t.Error("y gave no command")
	}
}

func TestCompactionAndHistory(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	openFixture(t, m, "Round 0: refactor the parser")
	ms := &m.session.msgs
	compacted := len(ms.items)
	press(m, "tab", "g")
	if v := plain(m); !strings.Contains(v, "compaction:") || !strings.Contains(v, "earlier messages were summarized away") {
		t.Errorf("no compaction marker at the top:\n%s", v)
	}
	press(m, "o")
	if !ms.history || len(ms.items) <= compacted {
		t.Errorf("history: %d items, compacted %d", len(ms.items), compacted)
	}
	press(m, "o")
	if ms.history || len(ms.items) != compacted {
		t.Errorf("back to compacted: %d items", len(ms.items))
	}
}

func TestHostileTextNeverReachesTheTerminal(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	openFixture(t, m, "多语言 ✨ test")
	v := m.View()
	for _, bad := range []string{"\x07", "\x1b]0;pwned", "\x1b]52", "\x1b[2J", "\u009b"} {
		if strings.Contains(v.Content, bad) {
			t.Errorf("view holds %q", bad)
		}
	}
	if !strings.Contains(v.Content, "␛]0;pwned title␇") {
		t.Errorf("hostile text not shown as placeholders:\n%s", ansi.Strip(v.Content))
	}
	if v.WindowTitle != "skein — 多语言 ✨ test" {
		t.Errorf("window title %q", v.WindowTitle)
	}
}

func TestHelpAndResize(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	press(m, "?")
	if v := plain(m); !strings.Contains(v, "skein · keys") || !strings.Contains(v, "filter") {
		t.Errorf("help:\n%s", v)
	}
	press(m, "esc")
	if m.showHelp {
		t.Error("esc did not close help")
	}
	openFixture(t, m, "Cache: Redis vs SQLite")
	for _, size := range [][2]int{{60, 20}, {240, 70}, {80, 24}, {40, 12}} { // smaller: TestEverySize
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(m.View().Content, "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: line %d is %d wide", size[0], size[1], i, w)
			}
		}
	}
}

func TestMouseWheel(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	m.Update(tea.MouseWheelMsg{X: 5, Y: 5, Button: tea.MouseWheelDown})
	if m.list.cursor != 1 {
		t.Errorf("wheel on the list: cursor %d", m.list.cursor)
	}
	openFixture(t, m, "Compiler work")
	before := m.session.msgs.top
	m.Update(tea.MouseWheelMsg{X: 100, Y: 10, Button: tea.MouseWheelUp})
	if m.session.msgs.top == before && m.session.msgs.topLine == 0 {
		t.Error("wheel over the messages did not scroll")
	}
	sel := m.session.tree.selected()
	m.Update(tea.MouseWheelMsg{X: 5, Y: 10, Button: tea.MouseWheelUp})
	if m.session.tree.selected() == sel {
		t.Error("wheel over the tree did not move")
	}
}

func TestNoColorHasNoColours(t *testing.T) {
	m := New(Options{Roots: []string{fixtureStore}, NoColor: true})
	if m.styles.User.GetForeground() != nil && fmt.Sprint(m.styles.User.GetForeground()) != "{}" {
		t.Errorf("NO_COLOR styles have a colour: %v", m.styles.User.GetForeground())
	}
	_ = theme.Plain()
}

// Golden views of both screens at 80 and 120 columns, dark and light.
func TestGoldenViews(t *testing.T) {
	for _, w := range []int{80, 120} {
		for _, dark := range []bool{true, false} {
			name := fmt.Sprintf("%d-%s", w, map[bool]string{true: "dark", false: "light"}[dark])
			t.Run("list-"+name, func(t *testing.T) {
				m := loaded(t, w, 30, dark, fixtureStore)
				golden.RequireEqual(t, m.View().Content)
			})
			t.Run("session-"+name, func(t *testing.T) {
				m := loaded(t, w, 30, dark, fixtureStore)
				openFixture(t, m, "Cache: Redis vs SQLite")
				golden.RequireEqual(t, m.View().Content)
			})
		}
	}
}

func TestMatchScore(t *testing.T) {
	in := &store.Info{Name: "Cache: Redis vs SQLite", FirstMessage: "Which database should we use?", Cwd: "/home/dev/webapp"}
	long := &store.Info{FirstMessage: strings.Repeat("refactor lorem ipsum dolor sit amet ", 20), Cwd: "/home/dev/tools"}
	cases := []struct {
		query string
		in    *store.Info
		want  bool
	}{
		{"redis", in, true}, {"redis", long, false}, {"rds", in, true}, {"webapp", in, true},
		{"cache redis", in, true}, {"cache nope", in, false}, {"sqlte", in, true},
	}
	for _, c := range cases {
		if got := matchScore(strings.Fields(c.query), c.in) > 0; got != c.want {
			t.Errorf("matchScore(%q, %.20q) = %v", c.query, title(c.in), got)
		}
	}
	if matchScore([]string{"redis"}, in) <= matchScore([]string{"webapp"}, in) {
		t.Error("a name match should outrank a folder match")
	}
}

// TestEverySize: from 1x1 up, on the list, a session, its help and a
// dialog, nothing panics; below 40x12 one line says the terminal is too
// small, and when it grows everything is back.
func TestEverySize(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	openFixture(t, m, "Health endpoint")
	states := []struct {
		enter func()
		shown string // at 120x40 again
	}{
		{func() {}, "Health endpoint"},
		{func() { press(m, "?") }, "skein · keys"},
		{func() { press(m, "?"); run(m, press(m, "f")) }, "Fork from this entry?"},
		{func() { press(m, "esc", "tab") }, "messages"},
		{func() { press(m, "/"); typeText(m, "health") }, "/health"},
		{func() { run(m, press(m, "enter")) }, "/health ·"},
		{func() { press(m, "esc", "r"); m.session.replay.playing = false }, "replay"},
		{func() { press(m, "?") }, "play/pause"},
		{func() { press(m, "?", "esc", "esc") }, "skein · sessions"},
		{func() { press(m, "?", "j", "j") }, "skein · keys"},
		{func() { press(m, "?", "/"); typeText(m, "health") }, "health"},
	}
	for k, st := range states {
		st.enter()
		for h := 1; h <= 14; h++ {
			for _, w := range []int{1, 2, 10, 39, 40, 41, 80} {
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("state %d at %dx%d: %v", k, w, h, r)
						}
					}()
					m.Update(tea.WindowSizeMsg{Width: w, Height: h})
					v := m.View().Content
					small := w < minWidth || h < minHeight
					if small && (strings.Count(v, "\n") > 0 || lipgloss.Width(v) > w) {
						t.Fatalf("state %d at %dx%d: not one line within the width:\n%q", k, w, h, v)
					}
					if small && w >= 30 && !strings.Contains(v, "too small") {
						t.Fatalf("state %d at %dx%d: %q", k, w, h, v)
					}
				}()
			}
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		if v := plain(m); !strings.Contains(v, st.shown) {
			t.Fatalf("state %d: back at 120x40, no %q:\n%s", k, st.shown, v)
		}
	}
}

// TestMain shows times in UTC, so that the golden views hold in any time
// zone the tests run in (skein itself shows local time).
func TestMain(m *testing.M) {
	time.Local = time.UTC
	os.Exit(m.Run())
}

// TestFilterOnlyNarrows: each letter typed into the filter keeps or shrinks
// the list, never grows it (it did: "ca" showed fewer sessions than "cac").
func TestFilterOnlyNarrows(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	infos := m.list.infos
	if len(infos) < 10 {
		t.Fatalf("only %d sessions", len(infos))
	}
	count := func(q string) int {
		n := 0
		for _, in := range infos {
			if matchScore(strings.Fields(strings.ToLower(q)), in) > 0 {
				n++
			}
		}
		return n
	}
	for _, word := range []string{"cache", "redis", "health", "compiler", "notes", "csv", "release", "plan", "webapp", "endpoint", "tool", "多语言"} {
		prev := len(infos) + 1
		for k := 1; k <= len([]rune(word)); k++ {
			q := string([]rune(word)[:k])
			n := count(q)
			if n > prev {
				t.Errorf("%q shows %d sessions, more than %q's %d", q, n, string([]rune(word)[:k-1]), prev)
			}
			prev = n
		}
	}
}

// TestSortByCreatedShowsCreated: sorted by creation, the time column is
// the creation time, and its header says so.
func TestSortByCreatedShowsCreated(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	if v := plain(m); !strings.Contains(v, "modified") {
		t.Fatalf("no modified column:\n%s", v)
	}
	press(m, "s")
	v := plain(m)
	if !strings.Contains(v, "sort: created") {
		t.Fatalf("not sorted by created:\n%s", v)
	}
	top := m.list.rows[0].info
	if want := relTime(m.list.now(), top.Created); !strings.Contains(v, want) {
		t.Errorf("the first row does not show its creation time %q:\n%s", want, v)
	}
	hdr := ""
	for _, line := range strings.Split(v, "\n") {
		if strings.Contains(line, "msgs") {
			hdr = line
			break
		}
	}
	if !strings.Contains(hdr, "created") || strings.Contains(hdr, "modified") {
		t.Errorf("column header %q", hdr)
	}
}

// TestBigCountsKeepTheirColumn: a count too wide for its column is
// shortened, so that it never runs into the column before it.
func TestBigCountsKeepTheirColumn(t *testing.T) {
	for n, want := range map[int]string{0: "0", 9999: "9999", 10000: "10k", 174117: "174k", 999999: "999k", 1_234_567: "1.2M"} {
		if got := shortCount(n); got != want {
			t.Errorf("shortCount(%d) = %q, want %q", n, got, want)
		}
		if got := padLeft(shortCount(n), 6); got[0] != ' ' || len(got) != 6 {
			t.Errorf("%d in the msgs column: %q", n, got)
		}
	}
}

// TestFilterPropertyOn10000: on a 10,000-session list, for every prefix of
// many queries, typing one more character never shows more sessions, and
// the rows typed letter by letter (the filter narrows its last matches)
// are the rows the whole query gives from scratch.
func TestFilterPropertyOn10000(t *testing.T) {
	m := tenThousandList()
	infos := m.list.infos
	r := rand.New(rand.NewPCG(7, 9))
	var queries []string
	for range 60 {
		in := infos[r.IntN(len(infos))]
		src := []string{in.Name, in.FirstMessage, in.Cwd, in.ID}[r.IntN(4)]
		runes := []rune(src)
		if len(runes) < 4 {
			continue
		}
		at := r.IntN(len(runes) - 3)
		queries = append(queries, string(runes[at:min(len(runes), at+3+r.IntN(12))]))
	}
	queries = append(queries, "cache redis", "多语言 支", "😀 dep", "zzz", "c a c", "ca", "cac")
	for _, q := range queries {
		m.list.filter, m.list.typing = "", true
		m.list.rebuild()
		prev := len(m.list.rows) + 1
		for _, ch := range q {
			m.Update(tea.KeyPressMsg{Code: ch, Text: string(ch)})
			n := len(m.list.rows)
			if n > prev {
				t.Fatalf("%q shows %d sessions, more than the %d before its last letter", m.list.filter, n, prev)
			}
			prev = n
			typed := make([]string, n)
			for i, row := range m.list.rows {
				typed[i] = row.info.Path
			}
			m.list.base = nil // from scratch
			m.list.refilter()
			for i, row := range m.list.rows {
				if i >= len(typed) || row.info.Path != typed[i] {
					t.Fatalf("%q: typed letter by letter gives other rows than from scratch (%d vs %d)", m.list.filter, len(typed), len(m.list.rows))
				}
			}
		}
	}
}

// The filter's matches are highlighted in the rows: a word as it is, or the
// letters of a fuzzy match.
func TestFilterHighlightsMatches(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	press(m, "/")
	typeText(m, "redis sqlte")
	v := m.View().Content
	if !strings.Contains(v, m.styles.Match.Render("Redis")) {
		t.Errorf("the word is not highlighted:\n%s", v)
	}
	if !strings.Contains(v, m.styles.Match.Render("QL")) || !strings.Contains(v, m.styles.Match.Render("te")) {
		t.Errorf("the fuzzy letters are not highlighted:\n%q", v)
	}
	if got := fuzzyAt("sqlte", "redis vs sqlite"); fmt.Sprint(got) != "[7 10 11 13 14]" {
		t.Errorf("fuzzyAt %v", got)
	}
}
