package model

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// core is a source with only the seven methods every format must give:
// entries 0 <- 1 <- 2, 0 <- 3 (a branch), 4 a second root.
type core struct{ parent []int }

func (c core) Len() int         { return len(c.parent) }
func (c core) Leaf() int        { return len(c.parent) - 1 }
func (c core) Parent(i int) int { return c.parent[i] }
func (c core) Raw(i int) []byte { return []byte(`{"n":` + string(rune('0'+i)) + `}`) }
func (c core) Entry(i int) Entry {
	return Entry{Kind: EntryMessage, Role: RoleUser, ID: string(rune('a' + i))}
}
func (c core) Message(m ContextMessage) Message {
	return Message{Role: RoleUser, Blocks: []Block{{Type: BlockText, Text: "hello there"}}}
}
func (c core) BuildContext(leaf int) Context {
	ctx := Context{Compaction: -1}
	for _, i := range (&Session{Source: c}).Path(leaf) {
		ctx.Entries = append(ctx.Entries, Projected{Entry: i, First: len(ctx.Messages), N: 1})
		ctx.Messages = append(ctx.Messages, ContextMessage{Entry: i})
	}
	return ctx
}

// TestSourceDefaults: a format that gives only the core gets the rest from
// Session: the tree from its parents, the index from its ids, no labels,
// no compaction, token estimates, and its tree and context as JSON.
func TestSourceDefaults(t *testing.T) {
	for _, s := range []*Session{NewSession(core{[]int{-1, 0, 1, 0, -1}}, SessionInfo{}), {Source: core{[]int{-1, 0, 1, 0, -1}}}} {
		if r := s.Roots(); !slices.Equal(r, []int{0, 4}) {
			t.Errorf("roots %v", r)
		}
		if c := s.Children(0); !slices.Equal(c, []int{1, 3}) {
			t.Errorf("children of 0: %v", c)
		}
		if i, ok := s.Index("c"); !ok || i != 2 {
			t.Errorf("index of c: %d %v", i, ok)
		}
		if _, ok := s.Index("z"); ok {
			t.Error("an id no entry has was found")
		}
		if _, ok := s.Label(1); ok || s.Name() != "" || s.Problems() != nil || s.TreeHidden() != nil {
			t.Error("a label, a name, problems or hidden entries from a source that has none")
		}
		if s.PlanCompaction(s.Leaf(), 0) != nil || s.NothingToCompact(s.Leaf(), 0) != "Nothing to compact" {
			t.Errorf("compaction: %q", s.NothingToCompact(s.Leaf(), 0))
		}
		if n := s.MessageTokens(ContextMessage{Entry: 1}); n != 3 {
			t.Errorf("tokens %d, want 3 (11 units / 4, up)", n)
		}
		if h := s.MessageHead(ContextMessage{Entry: 1}); h.Blocks != nil || h.Role != RoleUser {
			t.Errorf("head %+v", h)
		}
		if ctx := s.BuildHistory(2); len(ctx.Messages) != 3 || s.Omitted(ctx, 0) || s.Summarized(2, ctx) != 0 {
			t.Errorf("history %+v", ctx)
		}
		if p := s.TreeText(1, ""); len(p) != 2 || p[0].Text != "user: " || p[1].Text != "hello there" {
			t.Errorf("tree text %+v", p)
		}
		var buf bytes.Buffer
		if err := s.WriteTreeJSON(&buf); err != nil || !strings.HasPrefix(buf.String(), `[{"id":"a","type":null,"role":"user","label":null,"children":[{"id":"b"`) {
			t.Errorf("tree JSON %s %v", buf.String(), err)
		}
		buf.Reset()
		if err := s.WriteContextJSON(&buf, s.BuildContext(2)); err != nil || buf.String() != `{"messages":[{"n":0},{"n":1},{"n":2}]}`+"\n" {
			t.Errorf("context JSON %s %v", buf.String(), err)
		}
	}
}

// readOnly says why it is read-only.
type readOnly struct{ core }

func (readOnly) ReadOnly() string { return "read-only here" }

func TestNothingToCompactReadOnly(t *testing.T) {
	s := NewSession(readOnly{core{[]int{-1}}}, SessionInfo{})
	if got := s.NothingToCompact(0, 0); got != "Nothing to compact: read-only here" {
		t.Errorf("got %q", got)
	}
}

// TestStatsOfAFormatThatCountsNothing: a format with no Stats of its own
// (Cursor's transcripts) is counted from its entries, so that its stats
// say what the list says (0 messages before).
func TestStatsOfAFormatThatCountsNothing(t *testing.T) {
	s := &Session{Source: core{parent: []int{-1, 0}}}
	st := s.Stats()
	if st.Leaves != 1 || st.Messages != 2 || st.UserMessages != 2 {
		t.Errorf("%d leaves, %d messages (%d the user's)", st.Leaves, st.Messages, st.UserMessages)
	}
}

// TestTreeTextMarksInjectedContext: a user message its agent wrote (Gemini
// CLI's <session_context>) reads as context in the default tree text, not
// as the user's words.
func TestTreeTextMarksInjectedContext(t *testing.T) {
	s := &Session{Source: injected{core{parent: []int{-1}}}}
	got := ""
	for _, p := range s.TreeText(0, "") {
		got += p.Text
	}
	if got != "user: (context) hello there" {
		t.Errorf("%q", got)
	}
}

type injected struct{ core }

func (c injected) Message(m ContextMessage) Message {
	msg := c.core.Message(m)
	msg.Injected = true
	return msg
}
