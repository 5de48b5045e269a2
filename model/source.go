package model

import (
	"io"
	"sync"
)

// What Session answers for a source that does not say it. Each method asks
// the source first, through the one-method interface of its own name and
// signature, and falls back on what holds for a format without the
// capability: no labels, no context edits, no compaction, the quarter of
// UTF-16 as a message's tokens, a tree of the entries' kinds.

// derived is what Session works out from the core of a source, once.
type derived struct {
	linksOnce sync.Once
	links     Links
	indexOnce sync.Once
	index     map[string]int
}

// tree is the source's links worked out from Parent: the session's own
// when NewSession made it, else made again for this one call.
func (s *Session) tree() *Links {
	d := s.lazy
	if d == nil {
		d = &derived{}
	}
	d.linksOnce.Do(func() {
		p := make([]int32, s.Len())
		for i := range p {
			p[i] = int32(s.Parent(i))
		}
		d.links.SetParents(p)
	})
	return &d.links
}

// Children are entry i's children in entry order.
func (s *Session) Children(i int) []int {
	if t, ok := s.Source.(interface{ Children(int) []int }); ok {
		return t.Children(i)
	}
	return s.tree().Children(i)
}

// Roots are the entries with no parent, in entry order.
func (s *Session) Roots() []int {
	if t, ok := s.Source.(interface{ Roots() []int }); ok {
		return t.Roots()
	}
	return s.tree().Roots()
}

// BranchEnds are the entries where the paths worth showing end, one per
// branch: by default every entry with no children. A format whose tree
// holds records that hang off the conversation (Claude Code's progress
// lines) says which ends are branches.
func (s *Session) BranchEnds() []int {
	if x, ok := s.Source.(interface{ BranchEnds() []int }); ok {
		return x.BranchEnds()
	}
	var out []int
	for i := range s.Len() {
		if len(s.Children(i)) == 0 {
			out = append(out, i)
		}
	}
	return out
}

// Index finds an entry by its id: by default the first entry with that id.
func (s *Session) Index(id string) (int, bool) {
	if x, ok := s.Source.(interface{ Index(string) (int, bool) }); ok {
		return x.Index(id)
	}
	d := s.lazy
	if d == nil {
		d = &derived{}
	}
	d.indexOnce.Do(func() {
		d.index = make(map[string]int, s.Len())
		for i := s.Len() - 1; i >= 0; i-- {
			if e := s.Entry(i); e.ID != "" {
				d.index[e.ID] = i
			}
		}
	})
	i, ok := d.index[id]
	return i, ok
}

// Detail is what entry i says when it is not a message; none by default.
func (s *Session) Detail(i int) Detail {
	if x, ok := s.Source.(interface{ Detail(int) Detail }); ok {
		d := x.Detail(i)
		if s.filter != nil {
			d.Label, d.Title = s.filter.String(d.Label), s.filter.String(d.Title)
		}
		return d
	}
	return Detail{}
}

// Label is the label the user put on entry i; a format without labels has
// none.
func (s *Session) Label(i int) (string, bool) {
	if x, ok := s.Source.(interface{ Label(int) (string, bool) }); ok {
		l, ok := x.Label(i)
		if s.filter != nil {
			l = s.filter.String(l)
		}
		return l, ok
	}
	return "", false
}

// Name is the session's name, "" for none.
func (s *Session) Name() string {
	if x, ok := s.Source.(interface{ Name() string }); ok {
		if s.filter != nil {
			return s.filter.String(x.Name())
		}
		return x.Name()
	}
	return ""
}

// MessageHead is Message without its content blocks: what a pass over
// thousands of messages reads when it needs the blocks of only a few. A
// format that can skip the blocks says so; else they are read and dropped.
func (s *Session) MessageHead(m ContextMessage) Message {
	if x, ok := s.Source.(interface{ MessageHead(ContextMessage) Message }); ok {
		msg := x.MessageHead(m)
		if s.filter != nil {
			filterMessage(s.filter, &msg)
		}
		return msg
	}
	msg := s.Message(m)
	msg.Blocks = nil
	return msg
}

// Problems are what is wrong in the file, as doctor reports them: lines
// skipped, orphans, cycles, labels of missing entries.
func (s *Session) Problems() []Diagnostic {
	if x, ok := s.Source.(interface{ Problems() []Diagnostic }); ok {
		return x.Problems()
	}
	return nil
}

// BuildHistory is the path's messages with the compactions on it in place
// of nothing: what the user saw, not what the model sees. Without
// compactions it is the context.
func (s *Session) BuildHistory(leaf int) Context {
	if x, ok := s.Source.(interface{ BuildHistory(int) Context }); ok {
		return x.BuildHistory(leaf)
	}
	return s.BuildContext(leaf)
}

// Omitted reports whether entry k of a context is left out of the model's
// context by an edit: never, in a format without context edits.
func (s *Session) Omitted(ctx Context, k int) bool {
	if x, ok := s.Source.(interface{ Omitted(Context, int) bool }); ok {
		return x.Omitted(ctx, k)
	}
	return false
}

// Summarized counts the messages a context's compaction replaced: none in
// a format without compactions.
func (s *Session) Summarized(leaf int, ctx Context) int {
	if x, ok := s.Source.(interface{ Summarized(int, Context) int }); ok {
		return x.Summarized(leaf, ctx)
	}
	return 0
}

// PlanCompaction plans a compaction of the path to leaf keeping about
// keepRecentTokens; nil when there is nothing to compact, and always in a
// format skein does not compact.
func (s *Session) PlanCompaction(leaf int, keepRecentTokens float64) *Plan {
	if x, ok := s.Source.(interface {
		PlanCompaction(int, float64) *Plan
	}); ok {
		return x.PlanCompaction(leaf, keepRecentTokens)
	}
	return nil
}

// NothingToCompact says why PlanCompaction made no plan: in a format skein
// does not compact, why it is read-only (ReadOnly).
func (s *Session) NothingToCompact(leaf int, keep float64) string {
	if x, ok := s.Source.(interface {
		NothingToCompact(int, float64) string
	}); ok {
		return x.NothingToCompact(leaf, keep)
	}
	if r := s.ReadOnly(); r != "" {
		return "Nothing to compact: " + r
	}
	return "Nothing to compact"
}

// ReadOnly is why skein changes nothing in the session, "" when it may:
// the format's own sentence, which names what to do instead.
func (s *Session) ReadOnly() string {
	if x, ok := s.Source.(interface{ ReadOnly() string }); ok {
		return x.ReadOnly()
	}
	return ""
}

// MessageTokens estimates a context message's tokens: by default the
// quarter of its UTF-16 units (Message.EstimateTokens).
func (s *Session) MessageTokens(m ContextMessage) int {
	if x, ok := s.Source.(interface{ MessageTokens(ContextMessage) int }); ok {
		return x.MessageTokens(m)
	}
	msg := s.Message(m)
	return msg.EstimateTokens()
}

// Stats are the session's usage and activity. A format that does not
// count them (Cursor's transcripts record no usage) gets what its entries
// say: its messages by role, its tool calls by name, its errors and its
// branches, so that the stats count what the list and the header count.
func (s *Session) Stats() Stats {
	if x, ok := s.Source.(interface{ Stats() Stats }); ok {
		return x.Stats()
	}
	n := s.Len()
	times, order := ByTime(n, func(i int) string { return s.Entry(i).Timestamp })
	st := NewStatsTally()
	st.Leaves = len(s.BranchEnds())
	st.Walk(times, order, func(i int, d *Totals) {
		if s.Entry(i).Kind != EntryMessage {
			return
		}
		msg := s.EntryMessage(i)
		d.AddMessage(msg.Role)
		for _, b := range msg.Blocks {
			if b.Type == BlockToolCall {
				st.Tool(d, b.Call.Name)
			}
		}
		if msg.Role == RoleAssistant && msg.Error != "" {
			d.Errors++
		}
	})
	return st.Done(nil)
}

// TreeText is the one-line text the format's agent shows for entry i in
// its tree (home shortens paths). By default a message reads as its role,
// "(context)" when its agent wrote it, its text and its calls, a tool's result as its first line, and any
// other entry as its type in brackets.
func (s *Session) TreeText(i int, home string) []Part {
	if x, ok := s.Source.(interface{ TreeText(int, string) []Part }); ok {
		parts := x.TreeText(i, home)
		if s.filter != nil {
			parts = append([]Part(nil), parts...)
			for k := range parts {
				parts[k].Text = s.filter.String(parts[k].Text)
			}
		}
		return parts
	}
	e := s.Entry(i)
	if e.Kind != EntryMessage {
		return Mark(e.Type)
	}
	msg := s.EntryMessage(i)
	if msg.Role == RoleToolResult {
		return []Part{ResultPart(&msg)}
	}
	head := []Part{{Text: msg.Role + ": ", Role: msg.Role}}
	if msg.Injected {
		// The agent's own context (Gemini CLI's <session_context>), not
		// the user's words.
		head = append(head, Part{Text: "(context) ", Role: "dim"})
	}
	parts, hasText, hasCalls := ReplyParts(head, &msg, home)
	if !hasText && !hasCalls {
		parts = append(parts, Part{Text: "(no text)", Role: "muted"})
	}
	return parts
}

// TreeHidden marks, by entry, what the agent's tree leaves out unless it
// is the leaf: nil, nothing, by default (the kinds say what the tree's
// filters hide).
func (s *Session) TreeHidden() []bool {
	if x, ok := s.Source.(interface{ TreeHidden() []bool }); ok {
		return x.TreeHidden()
	}
	return nil
}

// WriteContextJSON writes a context as the agent's own messages: by
// default {"messages":[...]}, each message's entry as stored (Raw), once.
func (s *Session) WriteContextJSON(w io.Writer, ctx Context) error {
	if x, ok := s.Source.(interface {
		WriteContextJSON(io.Writer, Context) error
	}); ok {
		return s.filterJSON(w, func(w io.Writer) error { return x.WriteContextJSON(w, ctx) })
	}
	return WriteMessagesJSON(w, func(add func([]byte)) {
		for _, pe := range ctx.Entries {
			if pe.N > 0 && pe.Entry >= 0 && pe.Entry < s.Len() {
				add(s.Raw(pe.Entry))
			}
		}
	})
}

// WriteTreeJSON writes the entry tree as JSON: by default an array of root
// nodes {id, type, role, label, children} from each entry's id, type and
// role (null when it is no message's) and its label (null for none).
func (s *Session) WriteTreeJSON(w io.Writer) error {
	if x, ok := s.Source.(interface{ WriteTreeJSON(io.Writer) error }); ok {
		return s.filterJSON(w, func(w io.Writer) error { return x.WriteTreeJSON(w) })
	}
	return WriteTree(w, s.Roots(), s.Children, func(buf []byte, i int) []byte {
		e := s.Entry(i)
		l, ok := s.Label(i)
		return AppendTreeNode(buf, e.ID, true, e.Type, e.Role, e.Role != "", l, ok)
	})
}
