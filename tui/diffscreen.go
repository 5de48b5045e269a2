package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"skein/model"
	"skein/store"
	"skein/tui/transcript"
)

// sideBySideWidth is the narrowest terminal the diff screen puts the two
// sides next to each other in; a narrower one has them one above the
// other.
const sideBySideWidth = 120

// diffMark is what m marked to compare: a session, at an entry ("" for
// its leaf).
type diffMark struct {
	path, entry string
}

func (d diffMark) String() string {
	if d.entry == "" {
		return d.path
	}
	return d.path + "@" + model.ShortID(d.entry)
}

// diffLoadedMsg is a comparison done in the background.
type diffLoadedMsg struct {
	gen   int
	d     *model.Diff
	lines []transcript.DiffLine
	err   error
}

// compare opens the two sessions (once when they are one), compares the
// marked end with the one in focus and lays the result out as lines: all
// of it in a command, none in Update.
func compare(gen int, a, b diffMark, home string) tea.Cmd {
	return func() tea.Msg {
		var ends [2]model.DiffEnd
		for k, mk := range []diffMark{a, b} {
			if k == 1 && mk.path == a.path {
				ends[1].Session = ends[0].Session
			} else {
				s, err := store.Open(mk.path)
				if err != nil {
					return diffLoadedMsg{gen: gen, err: err}
				}
				ends[k].Session = s
			}
			s := ends[k].Session
			ends[k].Leaf = s.Leaf()
			if mk.entry != "" {
				i, ok := s.Index(mk.entry)
				if !ok {
					return diffLoadedMsg{gen: gen, err: fmt.Errorf("%s has no entry %s", mk.path, mk.entry)}
				}
				ends[k].Leaf = i
			}
		}
		d := model.CompareSessions(ends[0], ends[1])
		return diffLoadedMsg{gen: gen, d: d, lines: transcript.DiffText(d, home)}
	}
}

// diffScreen shows a comparison: the shared part in one line, each side's
// messages (side by side when the terminal is wide enough), the files and
// their diffs, the totals.
type diffScreen struct {
	*shared
	gen     int
	loading bool
	err     error
	d       *model.Diff
	lines   []transcript.DiffLine
	// targets are the lines n and N move between: each message only one
	// side has, each file; sel is the one selected (-1: none).
	targets []int
	sel     int
	offset  int // the first row shown

	// rows are the lines laid out for the width, and rowOf each line's
	// row: made once per comparison and size, not in View.
	rows          []diffRow
	rowOf         map[int]int
	width, height int
}

// diffRow is a row of the screen: one line (stacked), or a line of each
// side (side by side; -1 for none).
type diffRow struct {
	left, right int
	split       bool // a row of the two sides' part, side by side
}

func newDiffScreen(sh *shared, gen int) *diffScreen {
	return &diffScreen{shared: sh, gen: gen, loading: true, sel: -1}
}

func (ds *diffScreen) loaded(msg diffLoadedMsg) tea.Cmd {
	ds.loading, ds.err, ds.d, ds.lines = false, msg.err, msg.d, msg.lines
	ds.targets = ds.targets[:0]
	for i, l := range ds.lines {
		if l.Kind == transcript.DiffMessage || l.Kind == transcript.DiffFile {
			ds.targets = append(ds.targets, i)
		}
	}
	ds.layout()
	return nil
}

func (ds *diffScreen) SetSize(w, h int) {
	ds.width, ds.height = w, h
	ds.layout()
}

func (ds *diffScreen) sideBySide() bool { return ds.width >= sideBySideWidth }

// layout makes the rows: stacked, every line in order; side by side, the
// lines before the sides, then the left side's part next to the right's,
// then the files and totals under both.
func (ds *diffScreen) layout() {
	ds.rows, ds.rowOf = ds.rows[:0], map[int]int{}
	add := func(l, r int, split bool) {
		if l >= 0 {
			ds.rowOf[l] = len(ds.rows)
		}
		if r >= 0 {
			ds.rowOf[r] = len(ds.rows)
		}
		ds.rows = append(ds.rows, diffRow{l, r, split})
	}
	var heads []int
	for i, l := range ds.lines {
		if l.Kind == transcript.DiffHeading {
			heads = append(heads, i)
		}
	}
	if !ds.sideBySide() || len(heads) < 3 {
		for i := range ds.lines {
			add(i, -1, false)
		}
		return
	}
	for i := 0; i < heads[0]; i++ {
		add(i, -1, false)
	}
	left, right := heads[0], heads[1]
	for left < heads[1] || right < heads[2] {
		l, r := -1, -1
		if left < heads[1] {
			l, left = left, left+1
		}
		if right < heads[2] {
			r, right = right, right+1
		}
		add(l, r, true)
	}
	for i := heads[2]; i < len(ds.lines); i++ {
		add(i, -1, false)
	}
}

// Update takes the diff screen's keys: scrolling, moving between
// differences, opening a side at a message.
func (ds *diffScreen) Update(msg tea.KeyPressMsg) tea.Cmd {
	k := ds.keys
	body := ds.bodyHeight()
	switch {
	case key.Matches(msg, k.Down):
		ds.offset++
	case key.Matches(msg, k.Up):
		ds.offset--
	case key.Matches(msg, k.PageDown):
		ds.offset += body
	case key.Matches(msg, k.PageUp):
		ds.offset -= body
	case key.Matches(msg, k.Top):
		ds.offset = 0
	case key.Matches(msg, k.Bottom):
		ds.offset = len(ds.rows)
	case key.Matches(msg, k.NextMessage):
		ds.move(1)
	case key.Matches(msg, k.PrevMessage):
		ds.move(-1)
	case key.Matches(msg, k.Open):
		return ds.openSide()
	}
	ds.offset = max(0, min(ds.offset, len(ds.rows)-body))
	return nil
}

// move selects the next (d 1) or previous difference and scrolls to it.
func (ds *diffScreen) move(d int) {
	if len(ds.targets) == 0 {
		return
	}
	ds.sel = max(0, min(ds.sel+d, len(ds.targets)-1))
	if ds.sel < 0 {
		ds.sel = 0
	}
	row := ds.rowOf[ds.targets[ds.sel]]
	body := ds.bodyHeight()
	if row < ds.offset || row >= ds.offset+body {
		ds.offset = max(0, row-body/3)
	}
}

// openSide opens the session of the selected message's side at it.
func (ds *diffScreen) openSide() tea.Cmd {
	if ds.sel < 0 || ds.d == nil {
		return status("n/N: select a message first")
	}
	l := ds.lines[ds.targets[ds.sel]]
	if l.Kind != transcript.DiffMessage {
		return status("a file: open a message instead")
	}
	side := &ds.d.Left
	if l.Side == 1 {
		side = &ds.d.Right
	}
	return openFile(side.Session.Info.Path, side.Session.Entry(l.Entry).ID)
}

func (ds *diffScreen) bodyHeight() int { return max(1, ds.height-1) }

func (ds *diffScreen) help() ([]key.Binding, [][]key.Binding) {
	k := ds.keys
	next := key.NewBinding(key.WithKeys("n"), key.WithHelp("n/N", "next/prev difference"))
	open := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open that side at the message"))
	return []key.Binding{k.Help, next, open, k.Back},
		[][]key.Binding{
			{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown},
			{next, open, k.Mark, k.Compare},
			{k.Help, k.Back, k.ForceQuit},
		}
}

// View draws the rows shown: a title line, then the comparison.
func (ds *diffScreen) View() string {
	st := ds.styles
	title := st.Title.Render("compare") + " " + st.Muted.Render(ds.layoutName())
	switch {
	case ds.loading:
		return title + "\n" + st.Muted.Render("comparing…")
	case ds.err != nil:
		return title + "\n" + st.Error.Render(transcript.Flat(ds.err.Error()))
	}
	out := []string{fit(title, ds.width)}
	sel := -1
	if ds.sel >= 0 {
		sel = ds.targets[ds.sel]
	}
	end := min(len(ds.rows), ds.offset+ds.bodyHeight())
	for _, r := range ds.rows[ds.offset:end] {
		if !r.split {
			out = append(out, ds.cell(r.left, sel, ds.width))
			continue
		}
		cw := (ds.width - 3) / 2
		out = append(out, pad(ds.cell(r.left, sel, cw), cw)+st.Separator.Render(" │ ")+ds.cell(r.right, sel, cw))
	}
	return strings.Join(out, "\n")
}

func (ds *diffScreen) layoutName() string {
	if ds.sideBySide() {
		return "side by side"
	}
	return "stacked"
}

// cell is line i styled and cut to w; the selected one highlighted across
// the width.
func (ds *diffScreen) cell(i, sel, w int) string {
	if i < 0 {
		return ""
	}
	st := ds.styles
	l := ds.lines[i]
	text := truncate(l.Text, w)
	if i == sel {
		return st.Selected.Render(pad(text, w))
	}
	switch l.Kind {
	case transcript.DiffHeading:
		return st.Title.Render(text)
	case transcript.DiffFile:
		return st.Bold.Render(text)
	case transcript.DiffRemoved:
		return st.Error.Render(text)
	case transcript.DiffAdded:
		return st.Success.Render(text)
	}
	return text
}

// compareKey takes m (mark what is in focus: the list's session, or the
// session screen's entry) and D (compare what is in focus with the mark);
// ok says the key was one of them.
func (m *Model) compareKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	if !key.Matches(msg, k.Mark, k.Compare) || m.screen == screenDiff {
		return nil, false
	}
	var here *diffMark
	switch {
	case m.screen == screenSession && m.session != nil:
		if m.session.s == nil {
			return status("the session is still loading"), true
		}
		here = &diffMark{path: m.session.info.Path}
		if i := m.session.target(); i >= 0 {
			here.entry = m.session.s.Entry(i).ID
		}
	case m.screen == screenList:
		if in := m.list.selected(); in != nil {
			here = &diffMark{path: in.Path}
		}
	}
	if here == nil {
		return nil, true
	}
	if key.Matches(msg, k.Mark) {
		m.mark = here
		return status("marked " + transcript.OneLine(shortPath(here.String(), m.opts.Home)) + ": D compares it with another"), true
	}
	if m.mark == nil {
		return status("mark an entry, a branch or a session with m first"), true
	}
	m.diffGen++
	m.diff = newDiffScreen(m.shared, m.diffGen)
	m.diffFrom, m.screen = m.screen, screenDiff
	m.layout()
	return compare(m.diffGen, *m.mark, *here, m.opts.Home), true
}
