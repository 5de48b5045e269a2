package dhara05

import "skein/model"

// BuildContext is what Dhara sends when it resumes at leaf: agent-loop.ts
// buildMessages over session.getPath(), the path from the root to the head
// by parentId; each "entry" line of role system, user, assistant or
// tool_result gives one message, branch markers and anything else none.
// The model is the meta line's (every request names session.meta.model).
func (s *Session) BuildContext(leaf int) model.Context {
	ctx, ok := s.PathContext(leaf)
	if !ok {
		return ctx
	}
	ctx.Model = s.modelRef()
	ctx.ThinkingLevel = s.Meta.ThinkingLevel
	ctx.OnePerEntry(ctx.Path, func(i int) model.EntryKind { return s.Entries[i].kind }, false)
	return ctx
}

// modelRef is the meta line's model, nil when it names none.
func (s *Session) modelRef() *model.ModelRef {
	return model.NewModelRef(s.Meta.Provider, s.Meta.ModelID)
}

// ReadOnly is why skein changes nothing in a Dhara 0.5 session (and so
// why model.Session plans no compaction of it).
func (s *Session) ReadOnly() string {
	return "Dhara 0.5 session files are read-only in skein (Dhara rewrites the whole file on every save)"
}
