package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"skein/model"
	"skein/tui/transcript"
)

// msgPane shows the conversation on the path to the tree's selection, built
// by the model's context building. Only what is on screen is rendered, and a
// rendered message is kept per (entry, width, flags), so that scrolling a
// 10,000-message session renders a few messages a frame at most.
type msgPane struct {
	*shared
	s        *model.Session
	leaf     int
	ctx      model.Context // the context at leaf (built once a move; not the history)
	history  bool          // the full original history instead of the compacted context
	thinking bool
	expanded map[int]bool // entries whose tool calls and results are expanded

	items      []transcript.Item
	upTo       []int32 // per item: the messages up to it, itself included
	summarized int
	cache      map[renderKey][]string
	opts       *transcript.Options

	top, topLine  int      // the first visible line: item and line within it
	focus         int      // the item n/N, e and y act on
	match         []string // a search's texts, highlighted in the lines
	fresh         int      // entries an agent added that the reader has not gone to
	width, height int
	focused       bool
}

type renderKey struct {
	entry     int
	kind      model.Kind
	content   int32 // the message's content override: an edit differs by branch
	omitted   bool
	separator bool
	width     int
	expanded  bool
	thinking  bool
}

func newMsgPane(s *model.Session, sh *shared) msgPane {
	m := msgPane{shared: sh, s: s, leaf: -1, expanded: map[int]bool{}}
	m.resetCache()
	return m
}

func (m *msgPane) resetCache() {
	m.cache = map[renderKey][]string{}
	m.opts = &transcript.Options{Styled: true, Color: m.color, Styles: m.styles}
}

// themeChanged drops what was rendered with the old theme.
func (m *msgPane) themeChanged() { m.resetCache() }

func (m *msgPane) SetSize(w, h int) {
	if w != m.width {
		m.cache = map[renderKey][]string{}
	}
	m.width, m.height = w, h
	m.showEnd()
}

// setLeaf shows the path to leaf, its end on screen.
func (m *msgPane) setLeaf(leaf int) {
	m.leaf = leaf
	m.rebuild()
	m.showEnd()
}

func (m *msgPane) rebuild() { m.take(buildPath(m.s, m.leaf, m.history)) }

// builtPath is what the pane shows of a path: its context, how many
// messages a compaction summarized away, and the items drawn. It is pure
// work on the session, so that it can run outside Update.
type builtPath struct {
	leaf       int
	history    bool
	ctx        model.Context // the context at leaf (not the history)
	summarized int
	items      []transcript.Item
	upTo       []int32 // per item: the messages up to it, itself included
}

func buildPath(s *model.Session, leaf int, history bool) builtPath {
	b := builtPath{leaf: leaf, history: history}
	if s == nil || leaf < 0 {
		return b
	}
	b.ctx = s.BuildContext(leaf)
	b.summarized = s.Summarized(leaf, b.ctx)
	shown := b.ctx
	if history {
		shown = s.BuildHistory(leaf)
	}
	b.items = transcript.Items(s, shown, leaf)
	b.upTo = make([]int32, len(b.items))
	n := int32(0)
	for k, it := range b.items {
		// A message as the header and the stats count them: a message
		// entry's message, not a summary, a separator or an omission.
		if !it.Separator && !it.Omitted && it.Message.Kind == model.KindMessage && s.Entry(it.Entry).Kind == model.EntryMessage {
			n++
		}
		b.upTo[k] = n
	}
	return b
}

// take shows a built path.
func (m *msgPane) take(b builtPath) {
	m.leaf, m.ctx, m.summarized, m.items, m.upTo = b.leaf, b.ctx, b.summarized, b.items, b.upTo
	m.focus = len(m.items) - 1
}

// bodyHeight is the pane less its title line.
func (m *msgPane) bodyHeight() int { return max(1, m.height-1) }

// textWidth is the width messages are rendered at: the pane less a gutter.
func (m *msgPane) textWidth() int { return max(10, m.width-2) }

// lines renders item i (with the blank line that follows it), or returns it
// from the cache.
func (m *msgPane) lines(i int) []string {
	it := m.items[i]
	k := renderKey{entry: it.Entry, kind: it.Message.Kind, content: it.Message.Content, omitted: it.Omitted, separator: it.Separator, width: m.width,
		expanded: m.expanded[it.Entry], thinking: m.thinking}
	if l, ok := m.cache[k]; ok {
		return l
	}
	o := m.opts
	o.Width = m.textWidth()
	o.ShowThinking = m.thinking
	o.ExpandTools = k.expanded
	text := transcript.RenderItem(m.s, it, o)
	if !it.Separator && it.Message.Kind == model.KindCompactionSummary && !m.history && m.summarized > 0 {
		// Under the compaction's header: what it replaced, and how to see it.
		note := m.styles.Dim.Render(fmt.Sprintf("⋯ %d earlier messages were summarized away · o shows them", m.summarized))
		head, rest, _ := strings.Cut(text, "\n")
		text = head + "\n" + note + "\n" + rest
	}
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if ansi.StringWidth(line) > o.Width {
			out = append(out, strings.Split(ansi.Wrap(line, o.Width, " "), "\n")...)
			continue
		}
		out = append(out, line)
	}
	out = append(out, "")
	m.cache[k] = out
	return out
}

// showEnd scrolls so that the path's last message is on screen: its end at
// the bottom, or its start at the top when it is taller than the pane.
func (m *msgPane) showEnd() {
	if len(m.items) == 0 {
		m.top, m.topLine = 0, 0
		return
	}
	h := m.bodyHeight()
	last := len(m.items) - 1
	if n := len(m.lines(last)) - 1; n >= h {
		m.top, m.topLine = last, 0
		return
	}
	m.top, m.topLine = m.maxTop()
}

// maxTop is the furthest scroll position: the last line at the bottom.
func (m *msgPane) maxTop() (int, int) {
	h := m.bodyHeight()
	i := len(m.items) - 1
	total := len(m.lines(i)) - 1 // the last item has no separator below
	for total < h && i > 0 {
		i--
		total += len(m.lines(i))
	}
	if total <= h {
		return i, 0
	}
	return i, total - h
}

func before(i1, l1, i2, l2 int) bool { return i1 < i2 || i1 == i2 && l1 < l2 }

// scroll moves by d lines, and says whether it moved. The marker stays on
// its message while any of it is on screen; one scrolled out of sight
// gives the marker to the nearest message shown, so that it only ever
// moves the way the pane scrolls.
func (m *msgPane) scroll(d int) bool {
	if len(m.items) == 0 {
		return false
	}
	top, line := m.top, m.topLine
	for ; d > 0; d-- {
		mi, ml := m.maxTop()
		if !before(m.top, m.topLine, mi, ml) {
			break
		}
		m.topLine++
		if m.topLine >= len(m.lines(m.top)) {
			m.top, m.topLine = m.top+1, 0
		}
	}
	for ; d < 0; d++ {
		if m.top == 0 && m.topLine == 0 {
			break
		}
		m.topLine--
		if m.topLine < 0 {
			m.top--
			m.topLine = len(m.lines(m.top)) - 1
		}
	}
	m.focus = max(m.top, min(m.focus, m.lastShown()))
	return m.top != top || m.topLine != line
}

// lastShown is the last item with a line on screen.
func (m *msgPane) lastShown() int {
	if i := m.itemAt(m.bodyHeight() - 1); i >= 0 {
		return i
	}
	return len(m.items) - 1
}

// step moves the marker to the next message (d > 0) or the previous one,
// for a line key that has nothing left to scroll: in a path that fits, or
// at its end, j and k still reach every message.
func (m *msgPane) step(d int) {
	if len(m.items) == 0 {
		return
	}
	if d > 0 {
		m.focus = min(m.focus+1, len(m.items)-1)
	} else {
		m.focus = max(m.focus-1, 0)
	}
}

// restore scrolls back to a place kept across a reading again: the item
// of entry, at line; the end when the entry is no longer on the path.
func (m *msgPane) restore(k *scrollPos) {
	top, focus := -1, -1
	for i, it := range m.items {
		switch keyOf(it) {
		case k.top:
			top = i
		case k.focus:
			focus = i
		}
	}
	if top < 0 {
		return
	}
	m.top, m.topLine = top, max(0, min(k.line, len(m.lines(top))-1))
	if mi, ml := m.maxTop(); before(mi, ml, m.top, m.topLine) {
		m.top, m.topLine = mi, ml
	}
	m.focus = top
	if focus >= 0 {
		m.focus = focus
	}
}

// jump puts item i at the top of the pane (as far as the end allows).
func (m *msgPane) jump(i int) {
	if len(m.items) == 0 {
		return
	}
	i = max(0, min(i, len(m.items)-1))
	m.focus = i
	mi, ml := m.maxTop()
	m.top, m.topLine = i, 0
	if before(mi, ml, m.top, m.topLine) {
		m.top, m.topLine = mi, ml
	}
}

// Update handles a key when the pane has focus.
func (m *msgPane) Update(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Up):
		if !m.scroll(-1) {
			m.step(-1)
		}
	case key.Matches(msg, k.Down):
		if !m.scroll(1) {
			m.step(1)
		}
	case key.Matches(msg, k.PageUp):
		if !m.scroll(-max(1, m.bodyHeight()-2)) {
			m.focus = 0
		}
	case key.Matches(msg, k.PageDown):
		if !m.scroll(max(1, m.bodyHeight()-2)) {
			m.focus = len(m.items) - 1
		}
	case key.Matches(msg, k.Top):
		m.jump(0)
	case key.Matches(msg, k.Bottom):
		m.showEnd()
		m.focus = len(m.items) - 1
	default:
		return m.act(msg)
	}
	return nil
}

// act handles the keys that work whichever pane has focus.
func (m *msgPane) act(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.NextMessage):
		m.jump(m.focus + 1)
	case key.Matches(msg, k.PrevMessage):
		m.jump(m.focus - 1)
	case key.Matches(msg, k.Thinking):
		m.thinking = !m.thinking
	case key.Matches(msg, k.Expand):
		if m.focus >= 0 && m.focus < len(m.items) {
			e := m.items[m.focus].Entry
			before := strings.Join(m.lines(m.focus), "\n")
			m.expanded[e] = !m.expanded[e]
			if strings.Join(m.lines(m.focus), "\n") == before {
				return status("e: nothing to expand in this message (it works on the one under the marker)")
			}
		}
	case key.Matches(msg, k.History):
		// The message under the marker stays in view when it is in both.
		var at *itemKey
		if m.focus >= 0 && m.focus < len(m.items) {
			k := keyOf(m.items[m.focus])
			at = &k
		}
		m.history = !m.history
		m.rebuild()
		m.showEnd()
		for i, it := range m.items {
			if at != nil && keyOf(it) == *at {
				m.jump(i)
				break
			}
		}
	case key.Matches(msg, k.CopyMessage):
		if m.focus >= 0 && m.focus < len(m.items) && !m.items[m.focus].Separator {
			// What leaves skein for the clipboard goes without its secrets.
			rs, r := m.s.Redacted()
			msg := rs.Message(m.items[m.focus].Message)
			note := "message copied"
			if n := r.Total(); n > 0 {
				note += " (secrets: " + r.Summary() + ")"
			}
			return tea.Batch(tea.SetClipboard(copyText(&msg)), status(note))
		}
	}
	return nil
}

// itemAt is the item drawn on line n of the pane's body, -1 for none.
func (m *msgPane) itemAt(n int) int {
	if n < 0 {
		return -1
	}
	for i, l := m.top, m.topLine; i < len(m.items); i, l = i+1, 0 {
		left := len(m.lines(i)) - l
		if n < left {
			return i
		}
		n -= left
	}
	return -1
}

// View draws the visible lines only.
func (m *msgPane) View() string {
	st := m.styles
	title := "messages"
	if m.history {
		title += " · full history"
	}
	if n := len(m.upTo); n > 0 && m.upTo[n-1] > 0 && m.focus >= 0 && m.focus < n {
		// Messages, as the header counts them: of this branch, or of the
		// context where a compaction summarized the earlier ones.
		where := "on this branch"
		if m.summarized > 0 && !m.history {
			where = "in the context"
		}
		title += fmt.Sprintf(" · %d of %d %s", max(m.upTo[m.focus], 1), m.upTo[n-1], where)
	}
	if m.fresh > 0 {
		title += fmt.Sprintf(" · ↓ %d new (G)", m.fresh)
	}
	ts := st.Muted
	if m.focused {
		ts = st.Accent.Bold(true)
	}
	out := make([]string, 0, m.height)
	out = append(out, fit(ts.Render(title), m.width))
	h := m.bodyHeight()
	if len(m.items) == 0 {
		out = append(out, st.Muted.Render("  no messages on this path"))
	}
	bar := st.Accent.Render("▌ ")
	for i, l := m.top, m.topLine; i < len(m.items) && len(out) < h+1; i, l = i+1, 0 {
		lines := m.lines(i)
		if i == len(m.items)-1 {
			lines = lines[:len(lines)-1]
		}
		gutter := "  "
		if i == m.focus && m.focused {
			gutter = bar
		}
		sep := -1 // the blank line after the item
		if i != len(m.items)-1 {
			sep = len(lines) - 1
		}
		for ; l < len(lines) && len(out) < h+1; l++ {
			g := gutter
			if l == sep {
				g = ""
			}
			line := lines[l]
			if len(m.match) > 0 {
				line = highlight(line, m.match, st.Match)
			}
			out = append(out, fit(g+line, m.width))
		}
	}
	for len(out) < m.height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

// copyText is what copying a message gives: its text as written, without
// the header line or the thinking; for a message with no text, what it
// holds instead (a result's output, a command and its output, a summary).
func copyText(m *model.Message) string {
	if t := m.Text("\n\n"); t != "" {
		return t
	}
	switch {
	case m.Summary != "":
		return m.Summary
	case m.Command != "":
		return "$ " + m.Command + "\n" + m.Output
	}
	var calls []string
	for _, c := range m.ToolCalls() {
		calls = append(calls, c.Name+" "+string(c.Input))
	}
	return strings.Join(calls, "\n")
}
