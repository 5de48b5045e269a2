package claude

import (
	"slices"

	"skein/internal/jscan"
	"skein/model"
)

// conversation is the entries of path that are leaf's conversation's: the
// main conversation's, or, for a leaf in a sub-agent, that agent's (its
// path goes through the call that started it, whose conversation is not
// the agent's).
func (s *Session) conversation(path []int, leaf int) []int {
	agent := s.Entries[leaf].Agent
	out := make([]int, 0, len(path))
	for _, i := range path {
		if s.Entries[i].Agent == agent {
			out = append(out, i)
		}
	}
	return out
}

// BuildContext is what Claude Code sends when it resumes at leaf: the
// conversation's path from its newest compaction on (the compact summary
// as the first message, as Claude Code's chain starts again at the
// boundary, then the messages the compaction kept: its preserved
// segment), every message after it but those shown and never sent
// (isVisibleInTranscriptOnly) and the errors Claude Code wrote in place of
// a reply (isApiErrorMessage). Records (attachments, progress, system
// lines, file-history snapshots) give no message: skein does not rebuild
// what Claude Code makes of some of them for the model (FORMAT.md).
func (s *Session) BuildContext(leaf int) model.Context {
	ctx, ok := s.PathContext(leaf)
	if !ok {
		return ctx
	}
	conv := s.conversation(ctx.Path, leaf)
	from := 0
	for k := len(conv) - 1; k >= 0; k-- {
		if s.Entries[conv[k]].kind == model.EntryCompaction {
			ctx.Compaction, from = conv[k], k
			break
		}
	}
	for _, i := range conv[from:] {
		e := &s.Entries[i]
		pe := model.Projected{Entry: i, First: len(ctx.Messages)}
		switch {
		case i == ctx.Compaction && e.hasSummary:
			ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i, Kind: model.KindCompactionSummary})
			for _, k := range s.preserved(i) {
				ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: k})
			}
			pe.N = len(ctx.Messages) - pe.First
		case e.kind == model.EntryMessage && !e.excluded && !s.lines[e.first].has(flagAPIError):
			ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i})
			pe.N = 1
		}
		ctx.Entries = append(ctx.Entries, pe)
	}
	ctx.Model = s.modelRef(conv)
	return ctx
}

// preserved are the message entries a compaction kept verbatim, in order:
// its boundary's compactMetadata.preservedSegment names the first and the
// last (headUuid, tailUuid), and the entries between them are the chain
// from the one to the other. None when the segment is absent or its chain
// is broken.
func (s *Session) preserved(c int) []int {
	seg := jscan.Member(jscan.Member(s.lines[s.Entries[c].first].raw, "compactMetadata"), "preservedSegment")
	head, ok1 := jscan.String(jscan.Member(seg, "headUuid"))
	tail, ok2 := jscan.String(jscan.Member(seg, "tailUuid"))
	if !ok1 || !ok2 {
		return nil
	}
	h, ok1 := s.Index(head)
	k, ok2 := s.Index(tail)
	if !ok1 || !ok2 {
		return nil
	}
	var out []int
	for steps := 0; k >= 0 && steps < len(s.Entries); steps++ {
		if e := &s.Entries[k]; e.kind == model.EntryMessage && !e.excluded {
			out = append(out, k)
		}
		if k == h {
			slices.Reverse(out)
			return out
		}
		k = int(s.parent[k])
	}
	return nil
}

// BuildHistory is what the user saw on the path to leaf: every message of
// its conversation, the compactions in place.
func (s *Session) BuildHistory(leaf int) model.Context {
	ctx, ok := s.PathContext(leaf)
	if !ok {
		return ctx
	}
	conv := s.conversation(ctx.Path, leaf)
	ctx.OnePerEntry(conv, func(i int) model.EntryKind { return s.Entries[i].kind }, true)
	ctx.Model = s.modelRef(conv)
	return ctx
}

// modelRef is the model of the last reply on the path that names one
// (Claude Code writes "<synthetic>" for the replies it makes itself), nil
// when none does.
func (s *Session) modelRef(path []int) *model.ModelRef {
	for k := len(path) - 1; k >= 0; k-- {
		if s.Entries[path[k]].role != model.RoleAssistant {
			continue
		}
		if m := s.message(path[k], false).Model; m != "" && m != syntheticModel {
			return model.NewModelRef(Provider, m)
		}
	}
	return nil
}

const syntheticModel = "<synthetic>"

// Summarized counts the messages of the conversation before the context's
// compaction.
func (s *Session) Summarized(leaf int, ctx model.Context) int {
	if ctx.Compaction < 0 || leaf < 0 || leaf >= len(s.Entries) {
		return 0
	}
	n := 0
	for _, i := range s.conversation(s.Path(leaf), leaf) {
		if i == ctx.Compaction {
			break
		}
		if s.Entries[i].kind == model.EntryMessage {
			n++
		}
	}
	return n
}

// ReadOnly is why skein changes nothing in a Claude Code session (and so
// why model.Session plans no compaction of it).
func (s *Session) ReadOnly() string {
	return "Claude Code sessions are read-only in skein: import it first (skein session import --format claude) to compact, label or fork it"
}
