package codex

import (
	"bytes"
	"io"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
)

// BuildContext is the history Codex resumes with at leaf
// (reconstruct_history_from_rollout over the path from the root): every
// response item it records, in order; a compaction replaces what came
// before with its replacement history, or with the user messages it keeps
// and its summary; a rollback is already the tree's (its turns are off
// the path), or keeps what link worked out. The model is the last turn
// context's, its provider session_meta's, its effort the thinking level.
// Entries lists the path's entries from the last compaction on, each with
// the messages it gives (a compaction: what it keeps).
func (s *Session) BuildContext(leaf int) model.Context {
	ctx, ok := s.PathContext(leaf)
	if !ok {
		return ctx
	}
	var run []elem
	start := 0
	for k, i := range ctx.Path {
		run = s.apply(run, int32(i), true)
		if s.Entries[i].Type == TypeCompacted {
			ctx.Compaction, start = i, k
		}
	}
	ctx.Messages = make([]model.ContextMessage, len(run))
	for k := range run {
		ctx.Messages[k] = run[k].ContextMessage
	}
	at := 0
	for _, i := range ctx.Path[start:] {
		pe := model.Projected{Entry: i, First: at}
		for at < len(run) && run[at].owner == int32(i) {
			at++
		}
		pe.N = at - pe.First
		ctx.Entries = append(ctx.Entries, pe)
	}
	s.setModel(&ctx, leaf)
	return ctx
}

// setModel is the turn context in force at leaf: its model, and its
// effort as the thinking level.
func (s *Session) setModel(ctx *model.Context, leaf int) {
	tc := s.inForce[leaf]
	if tc < 0 {
		return
	}
	ref := &model.ModelRef{ModelID: jsjson.AppendString(nil, s.tcModel[tc])}
	if s.Meta.ModelProvider != "" {
		ref.Provider = jsjson.AppendString(nil, s.Meta.ModelProvider)
	}
	ctx.Model = ref
	if eff := jscan.ObjectMember(s.Entries[tc].Payload, "effort"); eff != nil && string(eff) != "null" {
		ctx.ThinkingLevel = append([]byte(nil), eff...)
	}
}

// Omitted reports whether projected entry k is a message Codex does not
// send when it resumes: a failed turn's error (isFailure), or a system
// message. The screens show it where it stood, marked as not sent.
func (s *Session) Omitted(ctx model.Context, k int) bool {
	pe := ctx.Entries[k]
	return pe.N == 0 && s.Entries[pe.Entry].kind == model.EntryMessage
}

// BuildHistory is what the user saw along the path: every message entry,
// and each compaction as its summary, in place.
func (s *Session) BuildHistory(leaf int) model.Context {
	ctx, ok := s.PathContext(leaf)
	if !ok {
		return ctx
	}
	ctx.OnePerEntry(ctx.Path, func(i int) model.EntryKind { return s.Entries[i].kind }, true)
	s.setModel(&ctx, leaf)
	return ctx
}

// Summarized counts the message entries on the path before the context's
// compaction that the context does not carry.
func (s *Session) Summarized(leaf int, ctx model.Context) int {
	if ctx.Compaction < 0 {
		return 0
	}
	before := map[int]bool{}
	for _, i := range ctx.Path {
		if i == ctx.Compaction {
			break
		}
		if s.Entries[i].kind == model.EntryMessage {
			before[i] = true
		}
	}
	n := len(before)
	for _, m := range ctx.Messages {
		if m.Content == 0 && before[m.Entry] {
			n--
			before[m.Entry] = false
		}
	}
	return n
}

// ReadOnly is why skein changes nothing in a Codex rollout (and so why
// model.Session plans no compaction of it).
func (s *Session) ReadOnly() string {
	return "Codex rollouts are read-only in skein (Codex appends to them while it runs): import it first"
}

// WriteContextJSON writes a context as {"messages": [...]}: the input
// Codex sends when it resumes there, less the new turn's message. First
// the base instructions as a developer message, when session_meta stores
// them (0.171.0 does; Codex sends them under an id of its own, which is
// not stored, so the message has none); then the history (historyItems).
func (s *Session) WriteContextJSON(w io.Writer, ctx model.Context) error {
	return model.WriteMessagesJSON(w, func(add func([]byte)) {
		if b := s.Meta.BaseInstructions; b != "" {
			if s.Meta.Source == "exec" {
				b = withoutPlan(b)
			}
			item := append([]byte(`{"type":"message","role":"developer","content":[{"type":"input_text","text":`), jsjson.AppendString(nil, b)...)
			add(append(item, "}]}"...))
		}
		s.historyItems(ctx, 0, add)
	})
}

// historyItems gives ctx's items as Codex sends them: a fork's source's
// (forkItems) unless a compaction replaced them, then Codex's own
// response items in order: an entry's payload (a bare line whole), a
// replacement history's item, each less
// internal_chat_message_metadata_passthrough, which Codex does not send; a
// compaction without one gives its summary as the user message Codex
// makes of it (build_compacted_history). depth is how many forks deep
// this session is.
func (s *Session) historyItems(ctx model.Context, depth int, add func([]byte)) {
	if ctx.Compaction < 0 {
		for _, item := range s.forkItems(depth) {
			add(item)
		}
	}
	for _, m := range ctx.Messages {
		if m.Entry < 0 || m.Entry >= len(s.Entries) {
			continue
		}
		var item []byte
		e := &s.Entries[m.Entry]
		switch {
		case m.Content < 0:
			item = s.item(m).raw
		case e.kind == model.EntryCompaction:
			msg, _ := jscan.String(jscan.ObjectMember(e.Payload, "message"))
			if msg == "" {
				msg = "(no summary available)"
			}
			item = append([]byte(`{"type":"message","role":"user","content":[{"type":"input_text","text":`), jsjson.AppendString(nil, msg)...)
			item = append(item, "}]}"...)
		default:
			item = e.Payload
		}
		if len(item) > 0 {
			add(withoutMember(item, passthrough))
		}
	}
}

// passthrough is the member of a 0.171.0 response item that Codex keeps
// for itself: its turn, time and the kinds of its parts.
const passthrough = "internal_chat_message_metadata_passthrough"

// withoutMember is the object item less its members named key: item itself
// when it has none (the bytes hold no such key), else a copy of the
// others, as they were written.
func withoutMember(item []byte, key string) []byte {
	if !bytes.Contains(item, []byte(`"`+key+`"`)) {
		return item
	}
	out := make([]byte, 0, len(item))
	out = append(out, '{')
	found := false
	jscan.Fields(item, func(k, v []byte) bool {
		if jscan.KeyIs(k, key) {
			found = true
			return true
		}
		out = jscan.AppendMember(out, k, v)
		return true
	})
	if !found {
		return item
	}
	return append(out, '}')
}

// withoutPlan is the base instructions as codex exec sends them: less the
// sections "## Planning" (up to the next "## " heading) and
// "## `update_plan`" (up to the next heading of any level), which hold
// for the update_plan tool that exec does not offer, and with no run of
// more than one blank line left where they were.
func withoutPlan(text string) string {
	if i := strings.Index(text, "## Planning\n"); i >= 0 {
		rest := text[i+len("## Planning\n"):]
		if j := strings.Index(rest, "\n## "); j >= 0 {
			text = text[:i] + rest[j+1:]
		}
	}
	if i := strings.Index(text, "## `update_plan`\n"); i >= 0 {
		rest := text[i+len("## `update_plan`\n"):]
		j := strings.Index(rest, "\n#")
		if j < 0 {
			j = len(rest)
		}
		text = text[:i] + rest[j:]
	}
	for strings.Contains(text, "\n\n\n") {
		text = strings.ReplaceAll(text, "\n\n\n", "\n\n")
	}
	return text
}
