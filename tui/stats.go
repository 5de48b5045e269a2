package tui

import (
	"fmt"
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"skein/model"
	"skein/store"
	"skein/theme"
	"skein/tui/transcript"
)

// statsView is one session's stats over the whole screen: its totals, the
// models and tools it used, the size of the context along its active
// branch as a sparkline (each compaction a drop, marked under it) and its
// tokens per day as bars. The stats are computed in a command (loadStats),
// or were when the session was opened; the view only draws them.
type statsView struct {
	dialogFrame
	footer string // its keys and where it is scrolled, for the footer
	info   model.SessionInfo
	home   string
	st     *model.Stats // nil while they are computed
	err    error
	offset int // the first line shown

	// The sparkline's columns for the width they were made for.
	colsWidth int
	cols      []float64
	marks     []bool
}

// statsLoadedMsg carries the stats a command computed for the view that
// asked for them (a closed view takes them and is never drawn again).
type statsLoadedMsg struct {
	v   *statsView
	st  model.Stats
	err error
}

func newStatsView(info model.SessionInfo, home string) *statsView {
	return &statsView{dialogFrame: dialogFrame{title: "Stats", hint: "esc/q: close · j/k: scroll"}, info: info, home: home}
}

// statsOf is the view on stats already computed (the open session's,
// made when it was read).
func statsOf(info model.SessionInfo, st model.Stats, home string) *statsView {
	v := newStatsView(info, home)
	v.st = &st
	return v
}

// loadStats is the view, to open at once, and the command that reads the
// session at info.Path in the background for its stats.
func loadStats(info model.SessionInfo, home string) (*statsView, tea.Cmd) {
	v := newStatsView(info, home)
	return v, func() tea.Msg {
		s, err := store.Open(info.Path)
		if err != nil {
			return statsLoadedMsg{v: v, err: err}
		}
		return statsLoadedMsg{v: v, st: s.Stats()}
	}
}

func (v *statsView) loaded(msg statsLoadedMsg) {
	v.st, v.err = &msg.st, msg.err
	v.colsWidth = 0
}

func (v *statsView) Update(msg tea.KeyPressMsg, k KeyMap) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, k.Back, k.Cancel):
		return nil, true
	case key.Matches(msg, k.Down):
		v.offset++
	case key.Matches(msg, k.Up):
		v.offset--
	case key.Matches(msg, k.PageDown):
		v.offset += 10
	case key.Matches(msg, k.PageUp):
		v.offset -= 10
	case key.Matches(msg, k.Top):
		v.offset = 0
	case key.Matches(msg, k.Bottom):
		v.offset = math.MaxInt32
	}
	return nil, false
}

// View draws the stats on the whole w x h: as many lines as fit from the
// scroll offset, the keys on the last line.
func (v *statsView) View(st theme.Styles, w, h int) string {
	lines := v.lines(st, w, h)
	room := max(1, h)
	v.offset = max(0, min(v.offset, len(lines)-room))
	end := min(len(lines), v.offset+room)
	shown := make([]string, 0, h)
	for _, l := range lines[v.offset:end] {
		shown = append(shown, fit(l, w))
	}
	for len(shown) < room {
		shown = append(shown, "")
	}
	// Its keys are the screen's one footer (footerHint), not a line of its
	// own above the footer of the screen beneath.
	v.footer = v.hint
	if len(lines) > room {
		v.footer += fmt.Sprintf(" · lines %d-%d of %d", v.offset+1, end, len(lines))
	}
	return strings.Join(shown, "\n")
}

// lines is everything the view shows, a line each, for width w and a
// screen h lines high (the sparkline grows with it): the session, the
// context's size, the totals, models, tools and days.
func (v *statsView) lines(st theme.Styles, w, h int) []string {
	title := v.info.Name
	if title == "" {
		title = v.info.FirstMessage
	}
	out := []string{st.Title.Render(truncate(transcript.OneLine("Stats · "+title), w))}
	sub := transcript.OneLine(shortPath(v.info.Cwd, v.home))
	switch {
	case v.err != nil:
		return append(out, st.Muted.Render(sub), "", st.Error.Render(transcript.OneLine(v.err.Error())))
	case v.st == nil:
		return append(out, st.Muted.Render(sub), "", st.Dim.Render("Reading the session…"))
	}
	s := v.st
	head := []string{sub}
	if !math.IsNaN(s.First) {
		from, to := absTime(s.First), absTime(s.Last)
		if from[:10] == to[:10] {
			to = to[11:]
		}
		head = append(head, from+" → "+to)
	}
	for _, l := range wrapParts(append(head, "active "+transcript.Active(s.Active)), " · ", w, "") {
		out = append(out, st.Muted.Render(l))
	}
	// heading is a section's name and what it says, wrapped.
	heading := func(name string, notes ...string) {
		out = append(out, "")
		for i, l := range wrapParts(append([]string{name}, notes...), " · ", w, "") {
			if i == 0 {
				l = st.Header.Render(name) + st.Muted.Render(strings.TrimPrefix(l, name))
			} else {
				l = st.Muted.Render(l)
			}
			out = append(out, l)
		}
	}

	// The context along the active branch.
	heading("Context", v.contextNotes()...)
	if len(s.Context) > 0 {
		rows := 1
		switch {
		case h >= 50:
			rows = 6
		case h >= 36:
			rows = 4
		case h >= 22:
			rows = 2
		}
		if v.colsWidth != w {
			v.cols, v.marks = contextColumns(s.Context, w)
			v.colsWidth = w
		}
		for _, l := range sparkline(v.cols, rows) {
			out = append(out, st.Accent.Render(l))
		}
		if marks := markLine(v.marks); marks != "" {
			out = append(out, st.Compaction.Render(marks))
		}
	}

	// The totals, over every branch.
	heading("Totals", "every branch")
	field := func(label string, parts ...string) {
		for i, l := range wrapParts(parts, " · ", w-10, "") {
			if i == 0 {
				out = append(out, st.Muted.Render(pad(label, 10))+l)
			} else {
				out = append(out, strings.Repeat(" ", 10)+l)
			}
		}
	}
	field("tokens", transcript.Tokens(s.TokensIn)+" in", transcript.Tokens(s.TokensOut)+" out")
	field("cache", transcript.Tokens(s.CacheRead)+" read", transcript.Tokens(s.CacheWrite)+" write")
	field("cost", model.CostText(s.UsageTotals, transcript.Cost), transcript.Tokens(s.Tokens())+" tokens in all")
	field("messages", fmt.Sprint(s.Messages), fmt.Sprintf("%d user", s.UserMessages), fmt.Sprintf("%d assistant", s.AssistantMessages),
		transcript.Count(s.ToolResults, "tool result", "tool results"))
	field("turns", transcript.Count(s.ToolCalls, "tool call", "tool calls"), transcript.Count(s.Errors, "error", "errors"),
		transcript.Count(s.Aborts, "abort", "aborts"), transcript.Count(s.Compactions, "compaction", "compactions"))
	if s.Incomplete > 0 {
		for _, l := range wrapParts(strings.Fields(transcript.Count(s.Incomplete, "usage has", "usages have")+" a number or its cost missing: counted as 0 (pi's own totals fail on it)"), " ", w, "") {
			out = append(out, st.Warning.Render(l))
		}
	}

	// Models, then tools.
	if len(s.ByModel) > 0 {
		heading("Models", "tokens and cost")
		kw := 0
		for _, m := range s.ByModel {
			kw = max(kw, ansi.StringWidth(transcript.OneLine(m.Key)))
		}
		kw = min(kw, max(8, w-17))
		for _, m := range s.ByModel {
			out = append(out, pad(truncate(transcript.OneLine(m.Key), kw), kw)+fmt.Sprintf("  %6s  %s", transcript.Tokens(m.Tokens()), model.CostText(m.UsageTotals, transcript.Cost)))
		}
	}
	if len(s.Tools) > 0 {
		heading("Tools", "calls by name")
		var parts []string
		for _, t := range s.Tools {
			parts = append(parts, transcript.OneLine(t.Name)+st.Muted.Render(fmt.Sprintf(" %d", t.Calls)))
		}
		out = append(out, wrapParts(parts, " · ", w, st.Muted.Render(" · "))...)
	}

	// Tokens per day.
	if len(s.Days) > 0 {
		heading("Tokens per day", "local time")
		out = append(out, dayBars(st, s.Days, w)...)
	}
	return out
}

// contextNotes say what the sparkline shows.
func (v *statsView) contextNotes() []string {
	c := v.st.Context
	if len(c) == 0 {
		return []string{"no answers on this branch"}
	}
	peak, compactions := 0.0, 0
	for _, p := range c {
		peak = max(peak, p.Tokens)
		if p.Compaction {
			compactions++
		}
	}
	notes := []string{"tokens after each answer on this branch", "peak " + transcript.Tokens(peak), "last " + transcript.Tokens(c[len(c)-1].Tokens)}
	if compactions > 0 {
		notes = append(notes, "▲ "+transcript.Count(compactions, "compaction", "compactions"))
	}
	return notes
}

// contextColumns lays the context's sizes out in at most width columns.
// A short series is stretched (up to 3 columns a point); a long one is
// bucketed, each column the largest size of its points but, where a
// compaction falls in it, the largest from the last compaction on: so that
// each compaction shows as a drop. marks says where compactions fall.
func contextColumns(pts []model.ContextPoint, width int) (cols []float64, marks []bool) {
	if len(pts) == 0 || width <= 0 {
		return nil, nil
	}
	if len(pts) <= width {
		k := min(3, width/len(pts))
		for _, p := range pts {
			for j := range k {
				cols = append(cols, p.Tokens)
				marks = append(marks, p.Compaction && j == 0)
			}
		}
		return cols, marks
	}
	cols, marks = make([]float64, width), make([]bool, width)
	for c := range width {
		from, to := c*len(pts)/width, (c+1)*len(pts)/width
		for _, p := range pts[from:to] {
			if p.Compaction {
				cols[c], marks[c] = p.Tokens, true // what came before it in this column is gone
			} else {
				cols[c] = max(cols[c], p.Tokens)
			}
		}
	}
	return cols, marks
}

// sparkline draws columns in rows lines of unicode blocks, the largest
// value filling every row; any size above zero shows at least a sliver.
func sparkline(cols []float64, rows int) []string {
	const blocks = " ▁▂▃▄▅▆▇█"
	levels := []rune(blocks)
	peak := 0.0
	for _, c := range cols {
		peak = max(peak, c)
	}
	lines := make([]strings.Builder, rows)
	for _, c := range cols {
		n := 0
		if peak > 0 && c > 0 {
			n = max(1, int(math.Round(c/peak*float64(rows*8))))
		}
		for r := range rows {
			fill := min(8, max(0, n-(rows-1-r)*8))
			lines[r].WriteRune(levels[fill])
		}
	}
	out := make([]string, rows)
	for r := range lines {
		out[r] = lines[r].String()
	}
	return out
}

// markLine puts ▲ under each column a compaction falls in.
func markLine(marks []bool) string {
	var b strings.Builder
	for _, m := range marks {
		if m {
			b.WriteString("▲")
		} else {
			b.WriteByte(' ')
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// dayBars draws each day's tokens as a bar (eighths of a cell at its end),
// the day with the most filling the width left by the labels.
func dayBars(st theme.Styles, days []model.DayTotals, w int) []string {
	const eighths = " ▏▎▍▌▋▊▉█"
	parts := []rune(eighths)
	peak := 0.0
	for _, d := range days {
		peak = max(peak, d.Tokens())
	}
	barW := max(1, w-len("2006-01-02")-2-8)
	var out []string
	for _, d := range days {
		day := d.Day
		if day == "" {
			day = "(no time)"
		}
		n := 0
		if peak > 0 {
			n = int(math.Round(d.Tokens() / peak * float64(barW*8)))
		}
		bar := strings.Repeat("█", n/8)
		if n%8 > 0 {
			bar += string(parts[n%8])
		}
		if d.Tokens() > 0 && bar == "" {
			bar = "▏"
		}
		out = append(out, pad(day, 10)+"  "+st.Accent.Render(bar)+" "+st.Muted.Render(transcript.Tokens(d.Tokens())))
	}
	return out
}

// wrapParts joins parts with sep into lines of at most w columns (a part
// wider than that is cut); styled, when not "", is sep as drawn.
func wrapParts(parts []string, sep string, w int, styled string) []string {
	if styled == "" {
		styled = sep
	}
	var lines []string
	line, lw := "", 0
	for _, p := range parts {
		pw := ansi.StringWidth(p)
		switch {
		case line == "":
			line, lw = p, pw
		case lw+ansi.StringWidth(sep)+pw > w:
			lines = append(lines, line)
			line, lw = p, pw
		default:
			line, lw = line+styled+p, lw+ansi.StringWidth(sep)+pw
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// footerHint is the view's keys and scroll position, which the screen's
// footer shows while the view is open.
func (v *statsView) footerHint() string { return v.footer }

// dollars is a cost as the session's header and the list's preview write
// it: to the cent, a cost under half a cent as $0.00.
func dollars(c float64) string { return fmt.Sprintf("$%.2f", c) }
