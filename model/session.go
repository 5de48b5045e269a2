package model

import "io"

// Source is what a format gives a parsed session: its entries and their
// tree, their content normalized, and the rules the format's agent follows
// to build a context and plan a compaction. A format package under store/
// implements it from its own bytes; everything else reaches a session
// through Session.
type Source interface {
	Len() int
	// Leaf is the entry the agent resumes at, -1 when there is none: the
	// last entry for pi; a format whose branches are named (Dhara) says
	// which tip is the active one.
	Leaf() int
	Entry(i int) Entry
	Detail(i int) Detail
	// Parent is the index of entry i's parent, -1 for a root.
	Parent(i int) int
	Children(i int) []int
	Roots() []int // Parent must make a forest: no cycles
	Index(id string) (int, bool)
	Label(i int) (string, bool)
	// Name is the session's name, "" for none.
	Name() string
	// Message is a context message's content, normalized.
	Message(m ContextMessage) Message
	// MessageHead is Message without its content blocks: what a pass over
	// thousands of messages reads when it needs the blocks of only a few.
	MessageHead(m ContextMessage) Message
	// Raw is the entry as stored, for the raw view; nil when the format
	// has no one record for it.
	Raw(i int) []byte
	// Problems are what is wrong in the file, as doctor reports them:
	// lines skipped, orphans, cycles, labels of missing entries.
	Problems() []Diagnostic

	// BuildContext is what the agent would resume with at leaf (-1: an
	// empty context).
	BuildContext(leaf int) Context
	// BuildHistory is the path's messages with the compactions on it in
	// place of nothing: what the user saw, not what the model sees.
	BuildHistory(leaf int) Context
	// Omitted reports whether entry k of a context is left out of the
	// model's context by an edit.
	Omitted(ctx Context, k int) bool
	// Summarized counts the messages a context's compaction replaced.
	Summarized(leaf int, ctx Context) int
	// PlanCompaction plans a compaction of the path to leaf keeping about
	// keepRecentTokens; nil when there is nothing to compact.
	PlanCompaction(leaf int, keepRecentTokens float64) *Plan
	// NothingToCompact says why PlanCompaction made no plan.
	NothingToCompact(leaf int, keep float64) string
	// MessageTokens estimates a context message's tokens.
	MessageTokens(m ContextMessage) int
	Stats() Stats
	// TreeText is the one-line text the format's agent shows for entry i
	// in its tree (home shortens paths).
	TreeText(i int, home string) []Part
	// TreeHidden marks, by entry, what the agent's tree leaves out unless
	// it is the leaf.
	TreeHidden() []bool
	// WriteContextJSON writes a context as the agent's own messages.
	WriteContextJSON(w io.Writer, ctx Context) error
	// WriteTreeJSON writes the entry tree as JSON.
	WriteTreeJSON(w io.Writer) error
}

// Session is a parsed session of any format.
type Session struct {
	Source
	Info SessionInfo
}

// MessageLiteral is Message for a writer that writes the message out at
// once, as an import does: a source that can gives a text or thinking
// block as its JSON literal (Block.TextJSON) when that literal is what
// JSON.stringify writes for it, so that it is neither decoded nor encoded
// again. The literal is the source's memory: a message from it is not kept
// past the session.
func (s *Session) MessageLiteral(m ContextMessage) Message {
	if l, ok := s.Source.(interface {
		MessageLiteral(ContextMessage) Message
	}); ok {
		return l.MessageLiteral(m)
	}
	return s.Message(m)
}

// NewSession makes the session of a format's source.
func NewSession(src Source, info SessionInfo) *Session {
	return &Session{Source: src, Info: info}
}

// Path is the entries from the root to entry i, root first (nil for -1).
func (s *Session) Path(i int) []int {
	// Count, then fill from the end: walking the parents twice costs less
	// than growing a slice of 100,000 entries and reversing it.
	n := s.Depth(i)
	path := make([]int, n)
	for j := i; j >= 0; j = s.Parent(j) {
		n--
		path[n] = j
	}
	return path
}

// Depth is the number of entries on the path from the root to entry i,
// i included (0 for -1): len(Path(i)) without making the path.
func (s *Session) Depth(i int) int {
	n := 0
	for ; i >= 0; i = s.Parent(i) {
		n++
	}
	return n
}

// KeptTokens estimates what a compaction keeps of the context: the messages
// from its first kept entry on.
func (s *Session) KeptTokens(p *Plan) int {
	kept := 0
	for _, m := range p.Context.Messages[p.Context.Entries[p.FirstKept].First:] {
		kept += s.MessageTokens(m)
	}
	return kept
}

// EntryMessage is the content of a message entry, or of the entry a
// summary or an extension's message came from.
func (s *Session) EntryMessage(i int) Message {
	k := KindMessage
	switch s.Entry(i).Kind {
	case EntryCompaction:
		k = KindCompactionSummary
	case EntryBranchSummary:
		k = KindBranchSummary
	case EntryCustomMessage:
		k = KindCustom
	}
	return s.Message(ContextMessage{Entry: i, Kind: k})
}

// SideNotes marks the entries that are data left beside a conversation
// rather than a branch of it: an entry that is no message (a record of
// the format's own, a label, a title), has no children and is not on the
// path to the leaf (Claude Code hangs a file-history snapshot or a turn's
// duration off a message whose conversation goes on in another child). A
// writer whose branches are paths (Dhara's tree.json) puts each in the
// conversation's run instead of making it a branch.
func (s *Session) SideNotes() []bool {
	out := make([]bool, s.Len())
	onPath := make([]bool, s.Len())
	for _, j := range s.Path(s.Leaf()) {
		onPath[j] = true
	}
	for i := range s.Len() {
		switch s.Entry(i).Kind {
		case EntryMessage, EntryCompaction, EntryBranchSummary, EntryCustomMessage:
			continue
		}
		out[i] = !onPath[i] && len(s.Children(i)) == 0
	}
	return out
}

// ParentsFirst is the entries in their order, but each after its parent:
// an entry that comes before its parent (Claude Code writes a snapshot
// before the prompt it is of) comes right after it.
func (s *Session) ParentsFirst() []int {
	n := s.Len()
	out := make([]int, 0, n)
	done := make([]bool, n)
	waiting := map[int][]int{}
	var stack []int
	for i := range n {
		if p := s.Parent(i); p >= 0 && !done[p] {
			waiting[p] = append(waiting[p], i)
			continue
		}
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			out = append(out, j)
			done[j] = true
			w := waiting[j]
			delete(waiting, j)
			for k := len(w) - 1; k >= 0; k-- {
				stack = append(stack, w[k])
			}
		}
	}
	return out
}
