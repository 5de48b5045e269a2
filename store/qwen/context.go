package qwen

import (
	"io"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
)

// BuildContext is the history Qwen Code resumes with at leaf
// (SessionApiHistoryAccumulator over the path from the root): each
// record's message in order, but a system record's (none is sent) and a
// realtime message's; a chat_compression with a compressedHistory
// replaces what came before with it (its first Content, the summary, a
// message of kind KindCompactionSummary; the others, which it keeps,
// KindMessage); a slash command's result that was
// not sent to the model takes back the command's user message. A
// tool_result gives a context message per function response (its Content
// -(k+1) for the k-th after the first), all sent as its one Content.
// Entries lists the path's entries from the last compression on, each
// with the messages it gives; the model is the last assistant's.
func (s *Session) BuildContext(leaf int) model.Context {
	ctx, ok := s.PathContext(leaf)
	if !ok {
		return ctx
	}
	type msg struct {
		model.ContextMessage
		owner int
	}
	var run []msg
	start := 0
	lastUser := -1 // the run's last message when it is a user's record that a slash command may take back
	for k, i := range ctx.Path {
		e := &s.Entries[i]
		if e.Type == TypeSystem {
			switch e.Subtype {
			case SubtypeCompression:
				if h := jscan.ObjectMember(e.Payload, "compressedHistory"); len(h) > 0 && h[0] == '[' {
					run = run[:0]
					n := 0
					jscan.Items(h, func(c []byte) bool {
						n++
						kind := model.KindMessage
						if n == 1 && jscan.StringMember(c, "role") == "user" {
							kind = model.KindCompactionSummary // the summary, as Qwen Code puts it first
						}
						run = append(run, msg{model.ContextMessage{Entry: i, Kind: kind, Content: int32(-n)}, i})
						return true
					})
					ctx.Compaction, start = i, k
				}
			case SubtypeSlash:
				if lastUser >= 0 && s.slashTakesBack(i, lastUser) && len(run) > 0 {
					run = run[:len(run)-1]
				}
			}
			lastUser = -1
			continue
		}
		lastUser = -1
		if e.Message == nil || e.Subtype == "realtime_message" || e.kind != model.EntryMessage {
			continue
		}
		run = append(run, msg{model.ContextMessage{Entry: i}, i})
		if e.Type == TypeToolResult {
			n := 0
			for _, p := range s.parts(i) {
				if jscan.ObjectMember(p, "functionResponse") != nil {
					if n > 0 {
						run = append(run, msg{model.ContextMessage{Entry: i, Content: int32(-n - 1)}, i})
					}
					n++
				}
			}
		}
		if e.Type == TypeUser && e.Subtype == "" {
			lastUser = i
		}
	}
	ctx.Messages = make([]model.ContextMessage, len(run))
	for k := range run {
		ctx.Messages[k] = run[k].ContextMessage
	}
	at := 0
	for _, i := range ctx.Path[start:] {
		pe := model.Projected{Entry: i, First: at}
		for at < len(run) && run[at].owner == i {
			at++
		}
		pe.N = at - pe.First
		ctx.Entries = append(ctx.Entries, pe)
	}
	s.setModel(&ctx)
	return ctx
}

// setModel is the model in force at the context's leaf: the last
// assistant's on the path, its provider the auth type of the last
// api_response record before it (none when there is none).
func (s *Session) setModel(ctx *model.Context) {
	for k := len(ctx.Path) - 1; k >= 0; k-- {
		if e := &s.Entries[ctx.Path[k]]; e.Type == TypeAssistant && e.Model != "" {
			provider := ""
			for j := k - 1; j >= 0; j-- {
				if p := &s.Entries[ctx.Path[j]]; p.kind == model.EntryUsage {
					provider = jscan.StringMember(jscan.ObjectMember(p.Payload, "uiEvent"), "auth_type")
					break
				}
			}
			ctx.Model = model.NewModelRef(provider, e.Model)
			return
		}
	}
}

// slashTakesBack reports whether slash command record i takes back user
// record u (the accumulator's slash_command case): its result, not sent to
// the model, whose output is all assistant items, after a user message
// that is the command alone.
func (s *Session) slashTakesBack(i, u int) bool {
	p := s.Entries[i].Payload
	if jscan.StringMember(p, "phase") != "result" || string(jscan.ObjectMember(p, "sentToModel")) == "true" {
		return false
	}
	items := jscan.ObjectMember(p, "outputHistoryItems")
	n, all := 0, true
	jscan.Items(items, func(v []byte) bool {
		n++
		if jscan.StringMember(v, "type") != "assistant" {
			all = false
		}
		return all
	})
	if n == 0 || !all {
		return false
	}
	parts := s.parts(u)
	if len(parts) != 1 {
		return false
	}
	only := true
	jscan.Fields(parts[0], func(k, _ []byte) bool {
		if !jscan.KeyIs(k, "text") {
			only = false
		}
		return only
	})
	t, ok := jscan.String(jscan.ObjectMember(parts[0], "text"))
	return only && ok && t == jscan.StringMember(p, "rawCommand")
}

// BuildHistory is what the user saw along the path: every message entry,
// and each compression as its summary, in place.
func (s *Session) BuildHistory(leaf int) model.Context {
	ctx, ok := s.PathContext(leaf)
	if !ok {
		return ctx
	}
	ctx.OnePerEntry(ctx.Path, func(i int) model.EntryKind { return s.Entries[i].kind }, true)
	s.setModel(&ctx)
	return ctx
}

// ReadOnly is why skein changes nothing in a Qwen Code chat.
func (s *Session) ReadOnly() string {
	return "Qwen Code chats are read-only in skein (Qwen Code appends to them while it runs): import it first"
}

// WriteContextJSON writes a context as {"messages": [...]}: the history
// Qwen Code resumes with, as the Gemini API Contents it keeps
// ({role: "user"|"model", parts}), which its provider's converter turns
// into that API's messages (for OpenAI: a model Content an assistant
// message, its thought parts reasoning_content, each functionResponse a
// tool message). Less what Qwen Code adds when it sends them: the system
// prompt, the startup context it puts before the first user message's
// parts, and the new turn.
func (s *Session) WriteContextJSON(w io.Writer, ctx model.Context) error {
	return model.WriteMessagesJSON(w, func(add func([]byte)) {
		for _, m := range ctx.Messages {
			if m.Entry < 0 || m.Entry >= len(s.Entries) {
				continue
			}
			e := &s.Entries[m.Entry]
			switch {
			case e.kind == model.EntryCompaction:
				if c := s.compressed(m.Entry, int(-m.Content)-1); c != nil {
					add(content(jscan.StringMember(c, "role"), jscan.ObjectMember(c, "parts")))
				}
			case m.Content < 0:
				// A tool_result's later function response: sent in its
				// Content, written with the first.
			default:
				role := jscan.StringMember(e.Message, "role")
				if !s.fragments {
					add(content(role, jscan.ObjectMember(e.Message, "parts")))
					continue
				}
				arr := []byte{'['}
				for k, p := range s.parts(m.Entry) {
					if k > 0 {
						arr = append(arr, ',')
					}
					arr = append(arr, p...)
				}
				add(content(role, append(arr, ']')))
			}
		}
	})
}

// content is a Content's JSON: {role, parts}, as the record's validated
// message keeps them (a role that is not a string left out).
func content(role string, parts []byte) []byte {
	out := []byte(`{`)
	if role != "" {
		out = append(out, `"role":`...)
		out = jsjson.AppendString(out, role)
		out = append(out, ',')
	}
	if len(parts) == 0 || parts[0] != '[' {
		parts = []byte("[]")
	}
	out = append(out, `"parts":`...)
	out = append(out, parts...)
	return append(out, '}')
}
