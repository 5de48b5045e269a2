package tui

import (
	"maps"
	"strings"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"skein/model"
	"skein/theme"
	"skein/tui/transcript"
)

// treePane shows the whole entry tree as pi's /tree draws it, with a cursor,
// folding, branch-point jumps and pi's filters.
type treePane struct {
	*shared
	s             *model.Session
	view          *model.TreeView
	cursor        int
	offset        int
	width, height int
	focused       bool
	// The filter and folds asked for last, and the layout of them under
	// way in the background on a large session (laying gen), whose result
	// replaces view when it arrives.
	filter    model.TreeFilter
	folded    map[int]bool
	note      string       // why a key did nothing, for the status line
	match     []string     // a search's texts, highlighted in the rows it matched
	matched   map[int]bool // those rows' entries
	laying    int64
	layingSel int // the selection when the layout was asked for
}

// layouts numbers the background layouts of every pane, so that a layout
// asked for by a pane since replaced (a session read again) never matches
// the new pane's.
var layouts atomic.Int64

// inlineTree is the most entries laid out again in Update, well under a
// millisecond; a larger tree is laid out by a command (12 ms for 100 MB).
const inlineTree = 5000

// treeLaidOutMsg is a fold's or a filter's layout made in the background.
type treeLaidOutMsg struct {
	path  string
	gen   int64
	view  *model.TreeView
	entry int // the entry the cursor follows
}

// newTreePane shows view, the tree of s laid out (nil: lay it out here).
func newTreePane(s *model.Session, view *model.TreeView, sh *shared) treePane {
	if view == nil {
		view = s.NewTreeView(s.Leaf(), model.FilterDefault)
	}
	t := treePane{shared: sh, s: s, view: view, filter: view.Filter, folded: maps.Clone(view.Folded)}
	t.cursor = t.view.NearestVisible(s.Leaf())
	return t
}

func (t *treePane) SetSize(w, h int) {
	t.width, t.height = w, h
	t.clamp()
}

// selected is the entry under the cursor, -1 for none.
func (t *treePane) selected() int {
	if t.view == nil || t.cursor < 0 || t.cursor >= len(t.view.Rows) {
		return -1
	}
	return t.view.Rows[t.cursor].Entry
}

// rowsHeight is the rows the pane shows: its height less the title.
func (t *treePane) rowsHeight() int { return max(1, t.height-1) }

func (t *treePane) clamp() {
	if t.view == nil {
		return
	}
	h := t.rowsHeight()
	t.cursor = max(0, min(t.cursor, len(t.view.Rows)-1))
	if t.cursor < t.offset {
		t.offset = t.cursor
	}
	if t.cursor >= t.offset+h {
		t.offset = t.cursor - h + 1
	}
	t.offset = max(0, min(t.offset, len(t.view.Rows)-h))
}

// reapply lays the rows out again for the filter and folds asked for, and
// keeps the cursor on entry, or on its nearest visible ancestor: at once on
// a small session, else by the command it returns, the old rows staying
// (and working) meanwhile.
func (t *treePane) reapply(entry int, path string) tea.Cmd {
	old, filter, folded := t.view, t.filter, maps.Clone(t.folded)
	if t.s.Len() <= inlineTree {
		t.view = old.With(filter, folded)
		t.cursor = t.view.NearestVisible(entry)
		t.clamp()
		return nil
	}
	gen := layouts.Add(1)
	t.laying, t.layingSel = gen, t.selected()
	return func() tea.Msg {
		return treeLaidOutMsg{path: path, gen: gen, view: old.With(filter, folded), entry: entry}
	}
}

// laidOut takes a layout made in the background, unless a newer one is
// under way; the cursor goes where it would have gone at once, or stays on
// the entry it moved to meanwhile.
func (t *treePane) laidOut(msg treeLaidOutMsg) (moved bool) {
	if msg.gen != t.laying || t.laying == 0 {
		return false
	}
	t.laying = 0
	before := t.selected()
	entry := msg.entry
	if before != t.layingSel && before >= 0 {
		entry = before
	}
	t.view = msg.view
	t.cursor = t.view.NearestVisible(entry)
	t.clamp()
	return t.selected() != before
}

// Update handles a key; moved says the selection changed, and cmd lays the
// tree out in the background.
func (t *treePane) Update(msg tea.KeyPressMsg, path string) (moved bool, cmd tea.Cmd) {
	if t.view == nil {
		return false, nil
	}
	before := t.selected()
	k := t.keys
	switch {
	case key.Matches(msg, k.Up):
		t.cursor--
	case key.Matches(msg, k.Down):
		t.cursor++
	case key.Matches(msg, k.Top):
		t.cursor = 0
	case key.Matches(msg, k.Bottom):
		t.cursor = len(t.view.Rows) - 1
	case key.Matches(msg, k.PageUp):
		t.cursor -= max(1, t.rowsHeight()-1)
	case key.Matches(msg, k.PageDown):
		t.cursor += max(1, t.rowsHeight()-1)
	case key.Matches(msg, k.Fold):
		if sel := t.selected(); sel >= 0 {
			r := t.view.Rows[t.cursor]
			if r.Foldable && !t.folded[sel] {
				t.folded[sel] = true
				cmd = t.reapply(sel, path)
			} else {
				t.jumpBranch(-1)
			}
		}
	case key.Matches(msg, k.Unfold):
		if sel := t.selected(); sel >= 0 && t.folded[sel] {
			delete(t.folded, sel)
			cmd = t.reapply(sel, path)
		} else {
			t.jumpBranch(1)
		}
	case key.Matches(msg, k.PrevBranch):
		t.jumpBranch(-1)
	case key.Matches(msg, k.NextBranch):
		t.jumpBranch(1)
	case key.Matches(msg, k.TreeFilter):
		// The selection stays where it is, or on the nearest entry the
		// new filter shows; the leaf only when nothing was selected.
		sel := t.selected()
		if sel < 0 {
			sel = t.s.Leaf()
		}
		t.filter = (t.filter + 1) % (model.FilterAll + 1)
		cmd = t.reapply(sel, path)
	}
	t.clamp()
	return t.selected() != before, cmd
}

// jumpBranch moves to the next (d > 0) or previous branch point.
func (t *treePane) jumpBranch(d int) {
	for k := t.cursor + d; k >= 0 && k < len(t.view.Rows); k += d {
		if t.view.IsBranchPoint(t.view.Rows[k].Entry) {
			t.cursor = k
			return
		}
	}
	t.note = map[bool]string{true: "no branch point below", false: "no branch point above"}[d > 0]
}

// rowOf is the row showing entry n, -1 when none does.
func (t *treePane) rowOf(n int) int {
	for k, r := range t.view.Rows {
		if r.Entry == n {
			return k
		}
	}
	return -1
}

// scroll moves the cursor by the mouse wheel.
func (t *treePane) scroll(d int) bool {
	before := t.selected()
	t.cursor += d
	t.clamp()
	return t.selected() != before
}

// View draws the visible rows only: a 100,000-entry tree costs a screenful.
func (t *treePane) View() string {
	st := t.styles
	lines := make([]string, 0, t.height)
	title := "tree"
	if f := t.filter; f != model.FilterDefault {
		title += " [" + f.String() + "]"
	}
	if n := len(t.view.Rows); n > 0 {
		title += " · row " + itoa(t.cursor+1) + " of " + itoa(n)
	}
	if t.laying != 0 {
		title += " · laying out…"
	}
	titleStyle := st.Muted
	if t.focused {
		titleStyle = st.Accent.Bold(true)
	}
	lines = append(lines, fit(titleStyle.Render(title), t.width))
	if len(t.view.Rows) == 0 {
		lines = append(lines, st.Muted.Render("  No entries found"))
	}
	for k := t.offset; k < len(t.view.Rows) && len(lines) < t.height; k++ {
		lines = append(lines, t.row(k))
	}
	for len(lines) < t.height {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = pad(l, t.width) // the pane keeps its width, rows or none
	}
	return strings.Join(lines, "\n")
}

func (t *treePane) row(k int) string {
	st := t.styles
	r := t.view.Rows[k]
	var b strings.Builder
	b.WriteString(st.Dim.Render(t.view.Prefix(r)))
	for _, p := range t.view.RowParts(r, t.home) {
		b.WriteString(partStyle(st, p.Role).Render(transcript.Flat(p.Text)))
	}
	line := b.String()
	if len(t.match) > 0 && t.matched[r.Entry] {
		line = highlight(line, t.match, st.Match)
	}
	if r.Entry == t.s.Leaf() {
		// The mark is kept whole: the row's text gives way to it.
		mark := st.Accent.Render(" ◂ leaf")
		line = fit(line, max(1, t.width-lipgloss.Width(mark))) + mark
	}
	line = fit(line, t.width)
	if k == t.cursor {
		if t.focused {
			return selectedRow(st.Selected, line, t.width)
		}
		return selectedRow(lipgloss.NewStyle().Reverse(true), line, t.width)
	}
	return line
}

func partStyle(st theme.Styles, role string) lipgloss.Style {
	switch role {
	case "user":
		return st.User
	case "assistant":
		return st.Assistant
	case "muted":
		return st.Muted
	case "dim":
		return st.Dim
	case "error":
		return st.Error
	case "custom":
		return st.Custom
	case "compaction":
		return st.Compaction
	case "warning":
		return st.Label
	case "marker":
		return st.Accent
	}
	return lipgloss.NewStyle()
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// selectedRow draws a selected row: its text without its own styles, so
// that none of their resets cuts the highlight short, across the whole
// width w.
func selectedRow(sel lipgloss.Style, line string, w int) string {
	return sel.Render(pad(ansi.Strip(line), w))
}
