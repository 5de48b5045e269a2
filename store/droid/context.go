package droid

import (
	"io"

	"skein/internal/jsjson"
	"skein/model"
)

// BuildContext is the history Droid resumes with at leaf (`droid exec -s
// ID`, checked against the requests it sent in testdata/agentgen/droid):
// every message on the path from the root, in order, as stored, the
// context message it injected at the start too; not a message it shows
// but never sends (visibility user_only). Consecutive user messages stay
// apart (a failed turn's prompt is sent before the next one). A record
// with tool results gives a context message per result (its Content
// -(k+1) for the k-th after the first), sent as its one message. Droid
// 0.225 wrote no compaction in these runs; none is read.
func (s *Session) BuildContext(leaf int) model.Context {
	ctx, ok := s.PathContext(leaf)
	if !ok {
		return ctx
	}
	for _, i := range ctx.Path {
		e := &s.Entries[i]
		if e.kind != model.EntryMessage || e.Visibility == "user_only" {
			continue
		}
		first := len(ctx.Messages)
		ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i})
		if e.role == model.RoleToolResult {
			for k := 1; k < results(e.Content); k++ {
				ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i, Content: int32(-(k + 1))})
			}
		}
		ctx.Entries = append(ctx.Entries, model.Projected{Entry: i, First: first, N: len(ctx.Messages) - first})
	}
	if s.Model != "" {
		ctx.Model = model.NewModelRef("", s.Model)
	}
	return ctx
}

// ReadOnly says why skein writes nothing into a Droid session.
func (s *Session) ReadOnly() string {
	return "Factory Droid sessions are read-only in skein (Droid appends to them while it runs): import it first"
}

// WriteContextJSON writes a context as {"messages": [...]}: the history
// Droid resumes with, as the Anthropic messages it sends ({role,
// content}, a record of tool results one message), less what it adds when
// sending: the system prompt, cache_control marks and the new turn.
func (s *Session) WriteContextJSON(w io.Writer, ctx model.Context) error {
	return model.WriteMessagesJSON(w, func(add func([]byte)) {
		for _, m := range ctx.Messages {
			if m.Entry < 0 || m.Entry >= len(s.Entries) || m.Content < 0 {
				continue // a record's later tool result: sent in its message
			}
			e := &s.Entries[m.Entry]
			out := []byte(`{"role":`)
			out = jsjson.AppendString(out, e.Role)
			out = append(out, `,"content":`...)
			if len(e.Content) > 0 {
				out = append(out, e.Content...)
			} else {
				out = append(out, "[]"...)
			}
			add(append(out, '}'))
		}
	})
}
