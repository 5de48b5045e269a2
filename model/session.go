package model

// Source is what every format gives a parsed session: its entries, their
// tree as each entry's parent, an entry's bytes, a message's content
// normalized, and the context the format's agent would resume with. A
// format package under store/ implements it from its own bytes;
// everything else reaches a session through Session.
//
// The rest of what Session answers is optional (as io.WriterTo is to
// io.Writer): a format adds a method of Session's own name and signature
// when it has something to say (Detail, Children and Roots, Index, Label,
// Name, MessageHead, MessageLiteral, Problems, BuildHistory, Omitted,
// Summarized, PlanCompaction and NothingToCompact, ReadOnly,
// MessageTokens, Stats, TreeText, TreeHidden, WriteContextJSON,
// WriteTreeJSON), and Session gives the default otherwise (source.go).
type Source interface {
	Len() int
	// Leaf is the entry the agent resumes at, -1 when there is none: the
	// last entry for pi; a format whose branches are named (Dhara) says
	// which tip is the active one.
	Leaf() int
	Entry(i int) Entry
	// Parent is the index of entry i's parent, -1 for a root. The parents
	// must make a forest: no cycles.
	Parent(i int) int
	// Raw is the entry as stored, for the raw view and for the text
	// index's check that an entry is still what it was; nil when the
	// format has no one record for it.
	Raw(i int) []byte
	// Message is a context message's content, normalized.
	Message(m ContextMessage) Message
	// BuildContext is what the agent would resume with at leaf (-1: an
	// empty context).
	BuildContext(leaf int) Context
}

// Session is a parsed session of any format.
type Session struct {
	Source
	Info SessionInfo
	// lazy holds what Session works out once for a source that does not
	// say it (the children, the id index); nil in a Session not made by
	// NewSession, which then works it out on each call.
	lazy *derived
	// filter, when set, is what the session's text comes out through
	// (WithText).
	filter TextFilter
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
		msg := l.MessageLiteral(m)
		if s.filter != nil {
			filterMessage(s.filter, &msg)
		}
		return msg
	}
	return s.Message(m)
}

// NewSession makes the session of a format's source.
func NewSession(src Source, info SessionInfo) *Session {
	return &Session{Source: src, Info: info, lazy: &derived{}}
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

// Fill is info with what it lacks of a session's format, id and working
// folder taken from the format's session: id and cwd are asked only when
// info has none (a list record has them; a file opened by its path does
// not). An empty format leaves info's as it is.
func (info SessionInfo) Fill(format string, id, cwd func() string) SessionInfo {
	if info.ID == "" {
		info.ID = id()
	}
	if info.Cwd == "" {
		info.Cwd = cwd()
	}
	if info.Format == "" {
		info.Format = format
	}
	return info
}

// SourceOf is the format's session of type T behind a domain session, or
// T's zero value for another format's, and for a filtered session (whose
// text must not be reached but through its filter).
func SourceOf[T Source](s *Session) T {
	if s.filter != nil {
		var zero T
		return zero
	}
	t, _ := s.Source.(T)
	return t
}
