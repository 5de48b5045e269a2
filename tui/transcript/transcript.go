// Package transcript renders a session's conversation as text for a
// terminal: styled with markdown when shown, plain when piped. Session text is
// untrusted and is sanitized before anything else touches it.
package transcript

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"skein/internal/sanitize"
	"skein/model"
	"skein/theme"
)

// Options say how to render.
type Options struct {
	Width        int  // wrap width for markdown; 0 for no wrapping
	Styled       bool // ANSI styles and markdown rendering
	Color        bool // colours (false under NO_COLOR)
	Styles       theme.Styles
	ShowThinking bool
	ExpandTools  bool
	ResultLines  int // lines of a tool result shown before truncating; 0 means 12
	Location     *time.Location
	md           map[int]*mdRenderer
}

// Item is one block of a transcript: a context message, a thin separator
// for a model or thinking-level change on the path, or an entry a context
// edit omitted from the model's context.
type Item struct {
	Message   model.ContextMessage
	Separator bool
	Omitted   bool
	Entry     int
}

// Items lists what a transcript shows for a context, in order: the context's
// messages (and the entries a context edit omitted, where they stood) with
// the path's model and thinking changes between them.
func Items(s *model.Session, ctx model.Context, leaf int) []Item {
	var seq []Item
	if ctx.Entries != nil {
		for k, pe := range ctx.Entries {
			for _, m := range ctx.Messages[pe.First : pe.First+pe.N] {
				seq = append(seq, Item{Message: m, Entry: m.Entry})
			}
			if s.Omitted(ctx, k) {
				seq = append(seq, Item{Omitted: true, Entry: pe.Entry, Message: model.ContextMessage{Entry: pe.Entry}})
			}
		}
	} else {
		for _, m := range ctx.Messages {
			seq = append(seq, Item{Message: m, Entry: m.Entry})
		}
	}
	pos := map[int]int{}
	path := s.Path(leaf)
	for k, i := range path {
		pos[i] = k
	}
	var items []Item
	prev := -1
	for _, it := range seq {
		m := it.Message
		checkpoint := !it.Omitted && (m.Kind == model.KindCompactionSummary || m.Kind == model.KindSystemCheckpoint)
		p, ok := pos[it.Entry]
		if ok && p > prev {
			for k := prev + 1; k < p; k++ {
				if t := s.Entry(path[k]).Kind; t == model.EntryModelChange || t == model.EntryThinkingLevel {
					if ctx.Compaction < 0 || k > pos[ctx.Compaction] || !checkpoint {
						items = append(items, Item{Separator: true, Entry: path[k]})
					}
				}
			}
		}
		items = append(items, it)
		if ok && !checkpoint {
			prev = p
		}
	}
	// Changes after the last message.
	for k := prev + 1; k < len(path); k++ {
		if t := s.Entry(path[k]).Kind; t == model.EntryModelChange || t == model.EntryThinkingLevel {
			items = append(items, Item{Separator: true, Entry: path[k]})
		}
	}
	return items
}

// Render renders a whole transcript.
func Render(s *model.Session, ctx model.Context, leaf int, o *Options) string {
	var b strings.Builder
	for i, it := range Items(s, ctx, leaf) {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(RenderItem(s, it, o))
		b.WriteString("\n")
	}
	return b.String()
}

func (o *Options) style(st lipgloss.Style, s string) string {
	if !o.Styled || !o.Color {
		if o.Styled && (st.GetBold() || st.GetItalic()) {
			return lipgloss.NewStyle().Bold(st.GetBold()).Italic(st.GetItalic()).Render(s)
		}
		return s
	}
	return st.Render(s)
}

func (o *Options) markdown(text string) string {
	text = Sanitize(text)
	if !o.Styled {
		return strings.TrimRight(text, "\n")
	}
	w := o.Width
	if w <= 0 {
		w = 100
	}
	if o.md == nil {
		o.md = map[int]*mdRenderer{}
	}
	r := o.md[w]
	if r == nil {
		cfg := theme.GlamourNoColor()
		if o.Color {
			cfg = theme.Glamour(o.Styles.IsDark)
		}
		r = newMarkdownRenderer(cfg, w)
		o.md[w] = r
	}
	out, err := r.Render(EscapeHTML(text))
	if err != nil {
		return text
	}
	return strings.Trim(out, "\n")
}

// RenderItem renders one item.
func RenderItem(s *model.Session, it Item, o *Options) string {
	st := o.Styles
	e := s.Entry(it.Entry)
	if it.Separator {
		var what string
		d := s.Detail(it.Entry)
		switch e.Kind {
		case model.EntryModelChange:
			what = "model: " + d.Provider + "/" + d.Model
		case model.EntryThinkingLevel:
			what = "thinking: " + d.ThinkingLevel
		case model.EntryLabel:
			if d.Label != "" {
				what = "label " + d.Target + ": " + d.Label
			} else {
				what = "label of " + d.Target + " cleared"
			}
		case model.EntryTitle:
			what = "named: " + d.Title
		case model.EntryCustom:
			what = "custom: " + d.CustomType
		default:
			what = e.Type
			if what == "" {
				what = "entry"
			}
		}
		return o.style(st.Separator, "── "+OneLine(what)+" ──")
	}
	m := it.Message
	if it.Omitted {
		return renderOmitted(s, it, o)
	}
	msg := s.Message(m)
	role := e.Role
	if (e.Kind != model.EntryMessage || role == "") && msg.Role != "" {
		role = msg.Role // a message a format makes of another entry (Codex's replacement history)
	}
	switch m.Kind {
	case model.KindCompactionSummary:
		role = model.RoleCompactionSummary
	case model.KindBranchSummary:
		role = model.RoleBranchSummary
	case model.KindCustom:
		role = model.RoleCustom
	case model.KindSystemCheckpoint:
		role = model.RoleSystem
	}
	ts := timeOf(&msg, o)
	if m.Edited() {
		// The model saw the edited content; the original is one expand away.
		ts += " · edited"
	}
	var b strings.Builder
	head := func(label string, lst lipgloss.Style, extra ...string) {
		b.WriteString(o.style(lst, label))
		for _, x := range extra {
			if x != "" {
				b.WriteString(o.style(st.Dim, " · "+x))
			}
		}
		b.WriteString("\n")
	}
	switch role {
	case model.RoleUser:
		if msg.Injected {
			// The agent's own instructions and environment: shown as the
			// context they are, folded like a tool's output.
			head("▍context", st.Muted, ts, "added by the agent")
			b.WriteString(o.style(st.Muted, o.truncate(o.content(msg.Blocks))))
			break
		}
		head("▍user", st.User, ts)
		b.WriteString(o.content(msg.Blocks))
	case model.RoleAssistant:
		head("▍assistant", st.Assistant, Sanitize(msg.Model), ts, usageText(msg.Usage))
		b.WriteString(o.assistant(&msg))
	case model.RoleToolResult:
		lst := st.ToolResult
		label := "← " + Sanitize(msg.ToolName)
		if msg.IsError {
			lst, label = st.Error, label+" (error)"
		}
		b.WriteString(o.style(lst, label) + o.style(st.Dim, " · "+ts) + "\n")
		text := o.truncate(o.outputContent(msg.Blocks))
		if msg.IsError {
			text = o.style(st.Error, text)
		} else {
			text = o.style(st.Muted, text)
		}
		b.WriteString(text)
	case model.RoleBashExecution:
		excluded := ""
		if msg.Excluded {
			excluded = "not sent to the model"
		}
		head("$ "+OneLine(msg.Command), st.Tool, ts, excluded)
		out := o.truncate(sanitize.Output(msg.Output))
		b.WriteString(o.style(st.Muted, out))
		if msg.Cancelled {
			b.WriteString("\n" + o.style(st.Warning, "(cancelled)"))
		} else if msg.ExitCode != "" && msg.ExitCode != "0" {
			b.WriteString("\n" + o.style(st.Error, "exit code "+Sanitize(msg.ExitCode)))
		}
	case model.RoleCustom:
		hidden := ""
		if msg.Hidden {
			hidden = "hidden from the user"
		}
		head("▍["+Sanitize(msg.CustomType)+"]", st.Custom, ts, hidden)
		b.WriteString(o.content(msg.Blocks))
	case model.RoleCompactionSummary:
		head("── compaction: "+Tokens(msg.TokensBefore)+" tokens summarized ──", st.Compaction, ts)
		b.WriteString(o.markdown(msg.Summary))
	case model.RoleBranchSummary:
		head("── branch summary ──", st.Warning, ts)
		b.WriteString(o.markdown(msg.Summary))
	case model.RoleSystem:
		b.WriteString(o.system(&msg, m.Kind == model.KindSystemCheckpoint, ts))
	default:
		head("▍["+Sanitize(role)+"]", st.Dim, ts)
		b.WriteString(o.style(st.Dim, o.plainContent(msg.Blocks)))
	}
	if m.Edited() && o.ExpandTools {
		orig := RenderItem(s, Item{Message: m.Original(), Entry: it.Entry}, o)
		if _, body, ok := strings.Cut(orig, "\n"); ok {
			b.WriteString("\n" + o.style(st.Warning, "original, before the edit:") + "\n" + o.style(st.Dim, body))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// renderOmitted renders an entry a context edit left out of the model's
// context, or a message the agent does not send: dimmed, its role and
// first line (an error's in the error style).
func renderOmitted(s *model.Session, it Item, o *Options) string {
	e := s.Entry(it.Entry)
	msg := s.EntryMessage(it.Entry)
	role := e.Role
	if e.Kind != model.EntryMessage {
		role = strings.ReplaceAll(e.Type, "_", " ")
	}
	head := "▍" + Sanitize(role) + " · omitted from context"
	if ts := timeOf(&msg, o); ts != "" {
		head += " · " + ts
	}
	text := o.plainContent(msg.Blocks)
	if text == "" {
		text = Sanitize(msg.Summary)
	}
	lst := o.Styles.Dim.Italic(true)
	if text == "" && msg.Error != "" {
		// A failed turn's error, which the agent does not send back: the
		// reply the user got, so said as an error.
		text, lst = "error: "+Sanitize(msg.Error), o.Styles.Error
	}
	line := OneLine(text)
	if o.Width > 0 && len(line) > 0 {
		line = ansi.Truncate(line, max(10, o.Width), "…")
	}
	return o.style(o.Styles.Dim, head) + "\n" + o.style(lst, line)
}

// system renders a system prompt message collapsed to one line (how much
// text, which sections, which tools), and whole when expanded.
func (o *Options) system(msg *model.Message, checkpoint bool, ts string) string {
	st := o.Styles
	label := "▍system prompt"
	if checkpoint {
		label = "▍system prompt checkpoint (the prompt the compaction carries forward)"
	}
	content := o.plainContent(msg.Blocks)
	var sections, removedSections []string
	for _, sec := range msg.Sections {
		if sec.Removed {
			removedSections = append(removedSections, sec.Name)
		} else {
			sections = append(sections, sec.Name)
		}
	}
	added, removed := msg.ToolsAdded, msg.ToolsRemoved
	var facts []string
	if content != "" {
		facts = append(facts, plural(strings.Count(content, "\n")+1, "line"))
	}
	if len(sections) > 0 {
		facts = append(facts, plural(len(sections), "section"))
	}
	if len(removedSections) > 0 {
		facts = append(facts, plural(len(removedSections), "section")+" removed")
	}
	if len(added) > 0 {
		facts = append(facts, "+"+plural(len(added), "tool"))
	}
	if len(removed) > 0 {
		facts = append(facts, "−"+plural(len(removed), "tool"))
	}
	if ts != "" {
		facts = append(facts, ts)
	}
	var b strings.Builder
	b.WriteString(o.style(st.Dim, label))
	if len(facts) > 0 {
		b.WriteString(o.style(st.Dim, " · "+strings.Join(facts, " · ")))
	}
	if !o.ExpandTools {
		b.WriteString(o.style(st.Dim, " · e expands"))
		return b.String()
	}
	if content != "" {
		b.WriteString("\n" + o.style(st.Muted, content))
	}
	for _, sec := range msg.Sections {
		if sec.Removed {
			b.WriteString("\n" + o.style(st.Warning, "section "+OneLine(sec.Name)+" removed"))
			continue
		}
		b.WriteString("\n" + o.style(st.Tool, "section "+OneLine(sec.Name)+":") + "\n" + o.style(st.Muted, Sanitize(sec.Text)))
	}
	if len(added) > 0 {
		b.WriteString("\n" + o.style(st.Tool, "tools added: "+OneLine(strings.Join(added, ", "))))
	}
	if len(removed) > 0 {
		b.WriteString("\n" + o.style(st.Warning, "tools removed: "+OneLine(strings.Join(removed, ", "))))
	}
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func usageText(u *model.Usage) string {
	if u == nil {
		return ""
	}
	s := fmt.Sprintf("%s in, %s out", Tokens(u.Input), Tokens(u.Output))
	if u.HasCost && u.Cost > 0 {
		s += fmt.Sprintf(", $%.4f", u.Cost)
	}
	return s
}

func timeOf(m *model.Message, o *Options) string {
	if !m.HasTime {
		return ""
	}
	loc := o.Location
	if loc == nil {
		loc = time.Local
	}
	return time.UnixMilli(int64(m.Time)).In(loc).Format("2006-01-02 15:04:05")
}

func (o *Options) assistant(m *model.Message) string {
	st := o.Styles
	var parts []string
	for i, b := range m.Blocks {
		switch b.Type {
		case model.BlockText:
			parts = append(parts, o.markdown(b.Text))
		case model.BlockThinking:
			words := len(strings.Fields(b.Text))
			switch {
			case words == 0:
				// Only its signature was kept (Claude Code's redacted or
				// summarised thinking): there is nothing to show or count.
				parts = append(parts, o.style(st.Dim, "∴ thinking (hidden)"))
			case o.ShowThinking:
				parts = append(parts, o.style(st.Dim.Italic(true), "∴ "+Sanitize(b.Text)))
			default:
				parts = append(parts, o.style(st.Dim, fmt.Sprintf("∴ thinking (%d words)", words)))
			}
		case model.BlockToolCall:
			tc := b.Call
			line := "→ " + Sanitize(tc.Name)
			if arg := model.KeyArgument(tc.Input); arg != "" {
				line += " " + OneLine(arg)
			}
			parts = append(parts, o.style(st.Tool, line))
			if o.ExpandTools {
				parts = append(parts, o.style(st.Muted, Sanitize(indentJSON(tc.Input))))
			}
		default:
			// A block with nothing to show right after thinking (Codex's
			// encrypted reasoning) is said on the thinking's line, not on
			// one of its own.
			if k := len(parts) - 1; k >= 0 && b.Text == "" && i > 0 && m.Blocks[i-1].Type == model.BlockThinking {
				parts[k] += o.style(st.Dim, " · "+Sanitize(b.Name))
				continue
			}
			parts = append(parts, o.style(st.Dim, "["+Sanitize(b.Name)+" block]"))
		}
	}
	switch m.StopReason {
	case "error":
		parts = append(parts, o.style(st.Error, "error: "+Sanitize(m.Error)))
	case "aborted":
		parts = append(parts, o.style(st.Warning, "(aborted)"))
	case "length":
		parts = append(parts, o.style(st.Warning, "(stopped at the length limit)"))
	}
	return strings.Join(parts, "\n")
}

// content renders user or custom content: markdown text and image placeholders.
func (o *Options) content(blocks []model.Block) string {
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case model.BlockText:
			parts = append(parts, o.markdown(b.Text))
		case model.BlockImage:
			parts = append(parts, o.style(o.Styles.Dim, imagePlaceholder(b)))
		default:
			parts = append(parts, o.style(o.Styles.Dim, "["+Sanitize(b.Name)+" block]"))
		}
	}
	return strings.Join(parts, "\n")
}

// plainContent is content as sanitized plain text.
func (o *Options) plainContent(blocks []model.Block) string { return o.textOf(blocks, Sanitize) }

// outputContent is a tool's output as plain text, without its colours.
func (o *Options) outputContent(blocks []model.Block) string {
	return o.textOf(blocks, sanitize.Output)
}

func (o *Options) textOf(blocks []model.Block, clean func(string) string) string {
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case model.BlockText:
			parts = append(parts, clean(b.Text))
		case model.BlockImage:
			parts = append(parts, imagePlaceholder(b))
		}
	}
	return strings.Join(parts, "\n")
}

func imagePlaceholder(b model.Block) string {
	return fmt.Sprintf("[image %s, %s]", Sanitize(b.MimeType), byteSize(b.DataLen*3/4))
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func (o *Options) truncate(s string) string {
	limit := o.ResultLines
	if limit == 0 {
		limit = 12
	}
	if limit < 0 || o.ExpandTools {
		return s
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= limit {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:limit], "\n") + "\n" + o.style(o.Styles.Dim, fmt.Sprintf("… %d more lines", len(lines)-limit))
}

// maxDepth is the deepest level of expanded tool arguments that gets lines
// of its own: deeper values are printed compact, within the line of the
// value that holds them, so that the text stays about the size of the
// arguments however deep they nest (100,000 levels, each on its own line
// indented two spaces more, came to 20 GB).
const maxDepth = 16

// indentJSON pretty-prints a raw JSON value two spaces a level, down to
// maxDepth.
func indentJSON(raw []byte) string {
	var b strings.Builder
	b.Grow(len(raw) + len(raw)/4)
	depth := 0
	inStr, esc := false, false
	nl := func() {
		if depth <= maxDepth {
			b.WriteByte('\n')
			for range depth {
				b.WriteString("  ")
			}
		}
	}
	for _, c := range raw {
		if inStr {
			b.WriteByte(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
			b.WriteByte(c)
		case '{', '[':
			depth++
			b.WriteByte(c)
			nl()
		case '}', ']':
			if depth > maxDepth {
				depth--
			} else {
				depth--
				nl()
			}
			b.WriteByte(c)
		case ',':
			b.WriteByte(c)
			nl()
		case ':':
			b.WriteString(": ")
		case ' ', '\t', '\n', '\r':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ReplayItem is the transcript item for a replay step.
func ReplayItem(st model.Step) Item {
	if st.Message != nil {
		return Item{Message: *st.Message, Entry: st.Entry}
	}
	return Item{Separator: true, Entry: st.Entry}
}

// Dim styles s as secondary text, when styling.
func (o *Options) Dim(s string) string { return o.style(o.Styles.Dim, s) }
