package dhara05

import (
	"io"

	"skein/internal/jsjson"
	"skein/model"
)

// BuildContext is what Dhara sends when it resumes at leaf: agent-loop.ts
// buildMessages over session.getPath(), the path from the root to the head
// by parentId; each "entry" line of role system, user, assistant or
// tool_result gives one message, branch markers and anything else none.
// The model is the meta line's (every request names session.meta.model).
func (s *Session) BuildContext(leaf int) model.Context {
	ctx := model.Context{Compaction: -1}
	if leaf < 0 || leaf >= len(s.Entries) {
		return ctx
	}
	ctx.Path = s.Path(leaf)
	ctx.Model = s.modelRef()
	ctx.ThinkingLevel = s.Meta.ThinkingLevel
	for _, i := range ctx.Path {
		pe := model.Projected{Entry: i, First: len(ctx.Messages)}
		if s.Entries[i].kind == model.EntryMessage {
			ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i})
			pe.N = 1
		}
		ctx.Entries = append(ctx.Entries, pe)
	}
	return ctx
}

// BuildHistory is BuildContext: Dhara 0.5 has no compaction, so what the
// user saw is what the model sees.
func (s *Session) BuildHistory(leaf int) model.Context { return s.BuildContext(leaf) }

// modelRef is the meta line's model, nil when it names none.
func (s *Session) modelRef() *model.ModelRef {
	if s.Meta.ModelID == "" && s.Meta.Provider == "" {
		return nil
	}
	ref := &model.ModelRef{}
	if s.Meta.Provider != "" {
		ref.Provider = jsjson.AppendString(nil, s.Meta.Provider)
	}
	if s.Meta.ModelID != "" {
		ref.ModelID = jsjson.AppendString(nil, s.Meta.ModelID)
	}
	return ref
}

// Summarized is 0: nothing is ever summarized.
func (s *Session) Summarized(int, model.Context) int { return 0 }

// PlanCompaction is nil: skein does not write Dhara 0.5 files.
func (s *Session) PlanCompaction(int, float64) *model.Plan { return nil }

// ReadOnly is why skein changes nothing in a Dhara 0.5 session.
const ReadOnly = "Dhara 0.5 session files are read-only in skein (Dhara rewrites the whole file on every save)"

// NothingToCompact says why there is no plan.
func (s *Session) NothingToCompact(int, float64) string {
	return "Nothing to compact: " + ReadOnly
}

// WriteContextJSON writes a context as {"messages": [...]}: the lines of
// the entries that give its messages, verbatim, in order.
func (s *Session) WriteContextJSON(w io.Writer, ctx model.Context) error {
	return model.WriteMessagesJSON(w, func(add func([]byte)) {
		for _, pe := range ctx.Entries {
			if pe.N > 0 && pe.Entry >= 0 && pe.Entry < len(s.Entries) {
				add(s.Entries[pe.Entry].Raw)
			}
		}
	})
}
