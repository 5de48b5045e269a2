package workflow

import "skein/model"

// CompactAt is the entry a compaction asked for at entry i of s goes
// after, and whether it starts a new branch there. An entry followed only
// by entries that add nothing to the conversation (labels, the session's
// name, a model or thinking change, an extension's data, usage: what the
// tree hides or shows as one row with the message before them) stands for
// the last of them: a compaction asked for at the last message shown goes
// after the session's leaf, and the label and name written after that
// message stay on the branch the agent resumes. Only an entry with more of
// the conversation after it branches, and the dialog says so first.
func CompactAt(s *model.Session, i int) (at int, branches bool) {
	if i < 0 || i >= s.Len() {
		return i, false
	}
	// The session's leaf first: a format whose branches share entries
	// (Dhara's) may give the entry other children on other branches.
	if leaf := s.Leaf(); leaf >= 0 {
		k := leaf
		for k >= 0 && k != i && aside(s.Entry(k)) {
			k = s.Parent(k)
		}
		if k == i {
			return leaf, false
		}
	}
	for j := i; ; {
		ch := s.Children(j)
		if len(ch) == 0 {
			return j, false
		}
		if len(ch) > 1 || !aside(s.Entry(ch[0])) {
			return i, true // after the entry asked for, as asked
		}
		j = ch[0]
	}
}

// aside says an entry adds nothing to what the model is sent.
func aside(e model.Entry) bool {
	switch e.Kind {
	case model.EntryLabel, model.EntryTitle, model.EntryModelChange, model.EntryThinkingLevel, model.EntryCustom, model.EntryUsage:
		return true
	}
	return false
}

// ContextTokens is what the context at leaf holds, in tokens, counted as
// the format's agent counts them where it does (pi: the last reply's usage
// and an estimate of what followed, the figure a compaction records as its
// tokensBefore), else estimated from the messages' text. A dialog that
// names the context's size uses this one figure.
func ContextTokens(s *model.Session, leaf int) float64 {
	ctx := s.BuildContext(leaf)
	if x, ok := s.Source.(interface {
		ContextTokens(model.Context) float64
	}); ok {
		return x.ContextTokens(ctx)
	}
	n := 0
	for _, m := range ctx.Messages {
		n += s.MessageTokens(m)
	}
	return float64(n)
}
