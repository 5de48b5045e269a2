// Package transcript renders a session's conversation as text for a
// terminal: styled with markdown when shown, plain when piped. Session text is
// untrusted and is sanitized before anything else touches it.
package transcript

import (
	"fmt"
	"math"
	"strings"
	"time"

	"charm.land/glamour/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"skein/internal/jscan"
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
	md           map[int]*glamour.TermRenderer
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
				if t := s.Entries[path[k]].Type; t == model.TypeModelChange || t == model.TypeThinkingLevelChange {
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
		if t := s.Entries[path[k]].Type; t == model.TypeModelChange || t == model.TypeThinkingLevelChange {
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
		o.md = map[int]*glamour.TermRenderer{}
	}
	r := o.md[w]
	if r == nil {
		cfg := theme.GlamourPlain()
		if o.Color {
			cfg = theme.Glamour(o.Styles.IsDark)
		}
		var err error
		r, err = glamour.NewTermRenderer(glamour.WithStyles(cfg), glamour.WithWordWrap(w))
		if err != nil {
			return text
		}
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
	e := &s.Entries[it.Entry]
	if it.Separator {
		var what string
		switch e.Type {
		case model.TypeModelChange:
			p, _ := e.StringField("provider")
			m, _ := e.StringField("modelId")
			what = "model: " + p + "/" + m
		case model.TypeThinkingLevelChange:
			t, _ := e.StringField("thinkingLevel")
			what = "thinking: " + t
		case model.TypeLabel:
			target, _ := e.StringField("targetId")
			if l, _ := e.StringField("label"); l != "" {
				what = "label " + target + ": " + l
			} else {
				what = "label of " + target + " cleared"
			}
		case model.TypeSessionInfo:
			n, _ := e.StringField("name")
			what = "named: " + model.TrimJS(n)
		case model.TypeCustom:
			ct, _ := e.StringField("customType")
			what = "custom: " + ct
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
	raw := s.MessageJSON(m)
	role := e.Role
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
	ts := timeOf(raw, o)
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
		head("▍user", st.User, ts)
		b.WriteString(o.content(model.Member(raw, "content"), false))
	case model.RoleAssistant:
		head("▍assistant", st.Assistant, Sanitize(model.String(model.Member(raw, "model"))), ts, usageText(model.Member(raw, "usage")))
		b.WriteString(o.assistant(raw))
	case model.RoleToolResult:
		name := model.String(model.Member(raw, "toolName"))
		isErr := string(model.Member(raw, "isError")) == "true"
		lst := st.ToolResult
		label := "← " + Sanitize(name)
		if isErr {
			lst, label = st.Error, label+" (error)"
		}
		b.WriteString(o.style(lst, label) + o.style(st.Dim, " · "+ts) + "\n")
		text := o.truncate(o.plainContent(model.Member(raw, "content")))
		if isErr {
			text = o.style(st.Error, text)
		} else {
			text = o.style(st.Muted, text)
		}
		b.WriteString(text)
	case model.RoleBashExecution:
		cmd := model.String(model.Member(raw, "command"))
		excluded := ""
		if string(model.Member(raw, "excludeFromContext")) == "true" {
			excluded = "not sent to the model"
		}
		head("$ "+OneLine(cmd), st.Tool, ts, excluded)
		out := o.truncate(Sanitize(model.String(model.Member(raw, "output"))))
		b.WriteString(o.style(st.Muted, out))
		if string(model.Member(raw, "cancelled")) == "true" {
			b.WriteString("\n" + o.style(st.Warning, "(cancelled)"))
		} else if code := model.Member(raw, "exitCode"); code != nil && string(code) != "0" && string(code) != "null" {
			b.WriteString("\n" + o.style(st.Error, "exit code "+string(code)))
		}
	case model.RoleCustom:
		ct := model.String(model.Member(raw, "customType"))
		hidden := ""
		if string(model.Member(raw, "display")) == "false" {
			hidden = "hidden from the user"
		}
		head("▍["+Sanitize(ct)+"]", st.Custom, ts, hidden)
		b.WriteString(o.content(model.Member(raw, "content"), false))
	case model.RoleCompactionSummary:
		tb, _ := jsonNumber(model.Member(raw, "tokensBefore"))
		head("── compaction: "+compactTokens(tb)+" tokens summarized ──", st.Compaction, ts)
		b.WriteString(o.markdown(model.String(model.Member(raw, "summary"))))
	case model.RoleBranchSummary:
		head("── branch summary ──", st.Warning, ts)
		b.WriteString(o.markdown(model.String(model.Member(raw, "summary"))))
	case model.RoleSystem:
		b.WriteString(o.system(raw, m.Kind == model.KindSystemCheckpoint, ts))
	default:
		head("▍["+Sanitize(role)+"]", st.Dim, ts)
		b.WriteString(o.style(st.Dim, o.plainContent(model.Member(raw, "content"))))
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
// context: dimmed, its role and first line.
func renderOmitted(s *model.Session, it Item, o *Options) string {
	e := &s.Entries[it.Entry]
	raw := s.MessageJSON(model.ContextMessage{Entry: it.Entry, Kind: kindOf(e)})
	role := e.Role
	if e.Type != model.TypeMessage {
		role = strings.ReplaceAll(e.Type, "_", " ")
	}
	head := "▍" + Sanitize(role) + " · omitted from context"
	if ts := timeOf(raw, o); ts != "" {
		head += " · " + ts
	}
	text := o.plainContent(model.Member(raw, "content"))
	if text == "" {
		text = Sanitize(model.String(model.Member(raw, "summary")))
	}
	line := OneLine(text)
	if o.Width > 0 && len(line) > 0 {
		line = ansi.Truncate(line, max(10, o.Width), "…")
	}
	return o.style(o.Styles.Dim, head) + "\n" + o.style(o.Styles.Dim.Italic(true), line)
}

func kindOf(e *model.Entry) model.Kind {
	switch e.Type {
	case model.TypeCustomMessage:
		return model.KindCustom
	case model.TypeBranchSummary:
		return model.KindBranchSummary
	case model.TypeCompaction:
		return model.KindCompactionSummary
	}
	return model.KindMessage
}

// system renders a system prompt message collapsed to one line (how much
// text, which sections, which tools), and whole when expanded.
func (o *Options) system(raw []byte, checkpoint bool, ts string) string {
	st := o.Styles
	label := "▍system prompt"
	if checkpoint {
		label = "▍system prompt checkpoint (the prompt the compaction carries forward)"
	}
	content := o.plainContent(model.Member(raw, "content"))
	var sections, removedSections, added, removed []string
	model.Fields(model.Member(raw, "sections"), func(k string, v []byte) {
		if string(v) == "null" {
			removedSections = append(removedSections, k)
		} else {
			sections = append(sections, k)
		}
	})
	_ = jscan.Elements(model.Member(raw, "toolsAdded"), func(t []byte) bool {
		added = append(added, model.String(model.Member(t, "name")))
		return true
	})
	_ = jscan.Elements(model.Member(raw, "toolsRemoved"), func(t []byte) bool {
		removed = append(removed, model.String(model.Member(t, "name")))
		return true
	})
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
	model.Fields(model.Member(raw, "sections"), func(k string, v []byte) {
		if string(v) == "null" {
			b.WriteString("\n" + o.style(st.Warning, "section "+OneLine(k)+" removed"))
			return
		}
		b.WriteString("\n" + o.style(st.Tool, "section "+OneLine(k)+":") + "\n" + o.style(st.Muted, Sanitize(model.String(v))))
	})
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

func usageText(u []byte) string {
	if u == nil {
		return ""
	}
	in, _ := jsonNumber(model.Member(u, "input"))
	out, _ := jsonNumber(model.Member(u, "output"))
	cost, hasCost := jsonNumber(model.Member(model.Member(u, "cost"), "total"))
	s := fmt.Sprintf("%s in, %s out", compactTokens(in), compactTokens(out))
	if hasCost && cost > 0 {
		s += fmt.Sprintf(", $%.4f", cost)
	}
	return s
}

func jsonNumber(raw []byte) (float64, bool) {
	var f float64
	if _, err := fmt.Sscan(string(raw), &f); err != nil {
		return 0, false
	}
	return f, true
}

func compactTokens(n float64) string {
	switch {
	case math.IsNaN(n):
		return "?"
	case n >= 1e6:
		return fmt.Sprintf("%.1fM", n/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1fk", n/1e3)
	}
	return fmt.Sprintf("%d", int64(n))
}

func timeOf(raw []byte, o *Options) string {
	ms, ok := jsonNumber(model.Member(raw, "timestamp"))
	if !ok {
		return ""
	}
	loc := o.Location
	if loc == nil {
		loc = time.Local
	}
	return time.UnixMilli(int64(ms)).In(loc).Format("2006-01-02 15:04:05")
}

func (o *Options) assistant(raw []byte) string {
	st := o.Styles
	var parts []string
	_ = jscan.Elements(model.Member(raw, "content"), func(b []byte) bool {
		switch t := model.String(model.Member(b, "type")); {
		case t == "text":
			parts = append(parts, o.markdown(model.String(model.Member(b, "text"))))
		case t == "thinking":
			th := model.String(model.Member(b, "thinking"))
			if o.ShowThinking {
				parts = append(parts, o.style(st.Dim.Italic(true), "∴ "+Sanitize(th)))
			} else {
				parts = append(parts, o.style(st.Dim, fmt.Sprintf("∴ thinking (%d words)", len(strings.Fields(th)))))
			}
		case model.IsToolCallBlock(b):
			tc := model.NormalizeToolCall(b)
			line := "→ " + Sanitize(tc.Name)
			if arg := model.KeyArgument(tc.Input); arg != "" {
				line += " " + OneLine(arg)
			}
			parts = append(parts, o.style(st.Tool, line))
			if o.ExpandTools {
				parts = append(parts, o.style(st.Muted, Sanitize(indentJSON(tc.Input))))
			}
		default:
			parts = append(parts, o.style(st.Dim, "["+Sanitize(t)+" block]"))
		}
		return true
	})
	switch model.String(model.Member(raw, "stopReason")) {
	case "error":
		msg := model.String(model.Member(raw, "errorMessage"))
		parts = append(parts, o.style(st.Error, "error: "+Sanitize(msg)))
	case "aborted":
		parts = append(parts, o.style(st.Warning, "(aborted)"))
	case "length":
		parts = append(parts, o.style(st.Warning, "(stopped at the length limit)"))
	}
	return strings.Join(parts, "\n")
}

// content renders user or custom content: markdown text and image placeholders.
func (o *Options) content(c []byte, _ bool) string {
	if s, ok := model.StringValue(c); ok {
		return o.markdown(s)
	}
	var parts []string
	_ = jscan.Elements(c, func(b []byte) bool {
		switch model.String(model.Member(b, "type")) {
		case "text":
			parts = append(parts, o.markdown(model.String(model.Member(b, "text"))))
		case "image":
			parts = append(parts, o.style(o.Styles.Dim, imagePlaceholder(b)))
		default:
			parts = append(parts, o.style(o.Styles.Dim, "["+Sanitize(model.String(model.Member(b, "type")))+" block]"))
		}
		return true
	})
	return strings.Join(parts, "\n")
}

// plainContent is content as sanitized plain text.
func (o *Options) plainContent(c []byte) string {
	if s, ok := model.StringValue(c); ok {
		return Sanitize(s)
	}
	var parts []string
	_ = jscan.Elements(c, func(b []byte) bool {
		switch model.String(model.Member(b, "type")) {
		case "text":
			parts = append(parts, Sanitize(model.String(model.Member(b, "text"))))
		case "image":
			parts = append(parts, imagePlaceholder(b))
		}
		return true
	})
	return strings.Join(parts, "\n")
}

func imagePlaceholder(b []byte) string {
	mime := model.String(model.Member(b, "mimeType"))
	n, _ := rawLen(model.Member(b, "data"))
	return fmt.Sprintf("[image %s, %s]", Sanitize(mime), byteSize(n*3/4))
}

func rawLen(raw []byte) (int, bool) {
	if len(raw) < 2 {
		return 0, false
	}
	return len(raw) - 2, true
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
