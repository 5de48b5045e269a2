package model

import (
	"skein/internal/jscan"
	"skein/internal/jsjson"
)

// Kind says how a context message is made from its entry.
type Kind uint8

const (
	KindMessage           Kind = iota // a message entry's message
	KindCompactionSummary             // a compaction's summary, as a message
	KindBranchSummary                 // a branch summary, as a message
	KindCustom                        // an extension's message
	KindSystemCheckpoint              // the system prompt a compaction carries forward
)

// ContextMessage is one message of a built context and the entry it came
// from: the first seed's parallel messages and entryIds lists in one.
type ContextMessage struct {
	Entry int
	Kind  Kind
	// Content is 0 for the content as stored, 1 + the index of the context
	// edit entry whose replacement the message carries, or below 0 for a
	// substitution of the format's own (pi's for a null content).
	Content int32
}

// Edited reports whether a context_edit replaced the message's content.
func (m ContextMessage) Edited() bool { return m.Content > 0 }

// EditEntry is the index of the context_edit entry whose replacement the
// message carries, or -1.
func (m ContextMessage) EditEntry() int {
	if m.Content > 0 {
		return int(m.Content) - 1
	}
	return -1
}

// Projected is one entry of the context's entry list (pi 1.6.0's
// buildContextEntries) and the messages it gives: Messages[First:First+N].
// An entry a context edit omits gives none.
type Projected struct {
	Entry    int
	First, N int
}

// Context is what an agent resumes with at a leaf (for pi, what its
// buildSessionProjection returns), as indexes into the session's entries.
type Context struct {
	Messages []ContextMessage
	// Entries are the selected entries in order, each with its messages.
	Entries []Projected
	// Path is the path from the root to the leaf.
	Path []int
	// ThinkingLevel is the thinking level in force at the leaf, as JSON
	// (`"off"` without a change; nil when the last change named none).
	ThinkingLevel []byte
	// Model is nil when the path names no model.
	Model *ModelRef
	// Compaction is the index of the compaction the context starts from, -1 for none.
	Compaction int
}

// ModelRef is the model in force at the leaf: its provider and id as
// JSON, a nil field absent.
type ModelRef struct {
	Provider []byte
	ModelID  []byte
}

// NewModelRef is the model a provider and a model id name as strings,
// each absent when "", nil when both are.
func NewModelRef(provider, modelID string) *ModelRef {
	if provider == "" && modelID == "" {
		return nil
	}
	ref := &ModelRef{}
	if provider != "" {
		ref.Provider = jsjson.AppendString(nil, provider)
	}
	if modelID != "" {
		ref.ModelID = jsjson.AppendString(nil, modelID)
	}
	return ref
}

// Name is provider/model, each a string's value or else its JSON.
func (m *ModelRef) Name() string { return jsonText(m.Provider) + "/" + jsonText(m.ModelID) }

// Thinking is the thinking level as text ("" when none was named).
func (c *Context) Thinking() string { return jsonText(c.ThinkingLevel) }

// jsonText is a JSON string's value, or else the JSON as written.
func jsonText(raw []byte) string {
	if jscan.IsString(raw) {
		if s, ok := jscan.Unquote(raw); ok {
			return s
		}
	}
	return string(raw)
}

// Original is the message as stored, before any edit or null-content
// replacement.
func (m ContextMessage) Original() ContextMessage {
	m.Content = 0
	return m
}

// Plan is what pi's prepareCompaction decides for a path.
type Plan struct {
	Leaf             int
	Path             []int   // entry indexes, root first
	Context          Context // the projection of the path
	FirstKept        int     // position in Context.Entries of the first kept entry
	FirstKeptEntryID string
	FirstKeptEntry   int // its entry index
	TokensBefore     float64
	IsSplitTurn      bool
	TurnStart        int // position in Context.Entries of the split turn's start, -1
	BoundaryStart    int // position in Context.Entries where this compaction's range starts
	// Messages to summarize and the split turn's prefix, as context messages.
	MessagesToSummarize []ContextMessage
	TurnPrefixMessages  []ContextMessage
	PreviousCompaction  int // entry index, -1 for none
	ReadFiles           []string
	ModifiedFiles       []string
}

// EntryMessages is the messages projected entry k gives.
func (ctx *Context) EntryMessages(k int) []ContextMessage {
	pe := ctx.Entries[k]
	return ctx.Messages[pe.First : pe.First+pe.N]
}

// Compaction is a compaction to write: the summary that replaces the
// history before its first kept entry, and what it kept track of.
type Compaction struct {
	Summary          string // with the file lists
	FirstKeptEntryID string
	TokensBefore     float64
	ReadFiles        []string
	ModifiedFiles    []string
	// Usage is what a model's summary cost; nil for an extractive one.
	Usage *Usage
	// Plan is what the compaction was planned from, on the session From
	// (whose entries the plan's indexes name).
	Plan *Plan
	From *Session
}

// CompactionKeeps are the messages compaction entry i itself gives in its
// format's context beside its summary (Codex's replacement history keeps
// the user's prompts and the instructions), in order: what a format whose
// compaction keeps only a run of the entries before it must write again
// after it.
func CompactionKeeps(s *Session, i int) []ContextMessage { return KeptIn(s.BuildContext(i), i) }

// KeptIn is CompactionKeeps of compaction i, from the context at it.
func KeptIn(ctx Context, i int) []ContextMessage {
	var out []ContextMessage
	for _, m := range ctx.Messages {
		if m.Entry == i && m.Kind == KindMessage {
			out = append(out, m)
		}
	}
	return out
}
