package copilot

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
)

// pathTo is the events from the first to leaf, following parents (a
// parent is always an earlier event, so the walk ends).
func (s *Session) pathTo(leaf int) []int {
	return model.PathTo(leaf, len(s.parent), s.Parent)
}

// live drops from path the events a snapshot rewind on it withdrew: those
// it lists (eventIds), else its upToEventId and every event after it up
// to the rewind.
func (s *Session) live(path []int) []int {
	gone := map[int]bool{}
	for k, i := range path {
		e := &s.Events[i]
		if e.Type != TypeRewind {
			continue
		}
		ids := jscan.Member(e.Data, "eventIds")
		if len(ids) > 0 && ids[0] == '[' {
			jscan.Items(ids, func(v []byte) bool {
				if id, ok := jscan.String(v); ok {
					if j, ok := s.index[id]; ok {
						gone[j] = true
					}
				}
				return true
			})
			continue
		}
		if j, ok := s.index[str(e.Data, "upToEventId")]; ok {
			for _, x := range path[:k] {
				if x >= j {
					gone[x] = true
				}
			}
		}
	}
	if len(gone) == 0 {
		return path
	}
	out := path[:0:0]
	for _, i := range path {
		if !gone[i] {
			out = append(out, i)
		}
	}
	return out
}

// BuildContext is what Copilot 1.0.102 sends when it resumes at leaf
// (checked against its requests: testdata/agentgen/copilot): the main
// agent's last system message; its user messages, assistant messages and,
// right after each assistant message, the results of its calls in the
// order it made them (the log has them in the order they finished); a
// sub-agent's events, usage records, turn markers and the rest not at all.
// A compaction that was applied replaces everything before the
// compaction_start it completes by its summary.
func (s *Session) BuildContext(leaf int) model.Context {
	ctx, ok := model.StartContext(leaf, len(s.Events), s.Parent)
	if !ok {
		return ctx
	}
	path := s.live(ctx.Path)
	results := map[string]int{}
	system := -1
	for _, i := range path {
		e := &s.Events[i]
		if e.AgentID != "" {
			continue
		}
		switch e.Type {
		case TypeSystem:
			system = i
		case TypeToolComplete:
			if id := str(e.Data, "toolCallId"); id != "" {
				results[id] = i
			}
		}
	}
	// The messages after the last applied compaction's start.
	from := 0
	for k := len(path) - 1; k >= 0; k-- {
		if i := path[k]; s.Events[i].kind == model.EntryCompaction && s.Events[i].AgentID == "" {
			ctx.Compaction = i
			from = s.compactionStart(path, k) + 1
			break
		}
	}
	add := func(i int, kind model.Kind) {
		ctx.Entries = append(ctx.Entries, model.Projected{Entry: i, First: len(ctx.Messages), N: 1})
		ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i, Kind: kind})
	}
	if system >= 0 {
		add(system, model.KindMessage)
	}
	if ctx.Compaction >= 0 {
		add(ctx.Compaction, model.KindCompactionSummary)
	}
	sent := map[int]bool{}
	for _, i := range path[from:] {
		e := &s.Events[i]
		if e.AgentID != "" {
			continue
		}
		switch e.Type {
		case TypeUser:
			add(i, model.KindMessage)
		case TypeAssistant:
			add(i, model.KindMessage)
			jscan.Items(jscan.Member(e.Data, "toolRequests"), func(v []byte) bool {
				if r, ok := results[str(v, "toolCallId")]; ok && !sent[r] && r > i {
					sent[r] = true
					add(r, model.KindMessage)
				}
				return true
			})
		case TypeToolComplete:
			if !sent[i] {
				// A result whose call is not on the path: where it is.
				sent[i] = true
				add(i, model.KindMessage)
			}
		}
	}
	return ctx
}

// compactionStart is the position on path of the compaction_start that
// the compaction at path[k] completes (the same compactionAttemptId, else
// the last start before it), -1 for none.
func (s *Session) compactionStart(path []int, k int) int {
	attempt := str(s.Events[path[k]].Data, "compactionAttemptId")
	last := -1
	for j := k - 1; j >= 0; j-- {
		e := &s.Events[path[j]]
		if e.Type != TypeCompactionStart || e.AgentID != "" {
			continue
		}
		if attempt != "" && str(e.Data, "compactionAttemptId") == attempt {
			return j
		}
		if last < 0 {
			last = j
		}
	}
	return last
}

// BuildHistory is every message on the path as the user saw it: the
// system prompts, the sub-agents' messages where they ran (after the task
// call that started them), errors, results in the order they finished, and
// a compaction as its summary where it was applied, with nothing dropped.
func (s *Session) BuildHistory(leaf int) model.Context {
	ctx, ok := model.StartContext(leaf, len(s.Events), s.Parent)
	if !ok {
		return ctx
	}
	for _, i := range s.live(ctx.Path) {
		kind := model.KindMessage
		switch s.Events[i].kind {
		case model.EntryMessage:
		case model.EntryCompaction:
			kind = model.KindCompactionSummary
		default:
			continue
		}
		ctx.Entries = append(ctx.Entries, model.Projected{Entry: i, First: len(ctx.Messages), N: 1})
		ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i, Kind: kind})
	}
	return ctx
}

// Summarized counts the messages before the compaction the context starts
// from that the context leaves out.
func (s *Session) Summarized(leaf int, ctx model.Context) int {
	if ctx.Compaction < 0 {
		return 0
	}
	n := 0
	for _, i := range s.pathTo(ctx.Compaction) {
		if e := &s.Events[i]; e.AgentID == "" && (e.Type == TypeUser || e.Type == TypeAssistant || e.Type == TypeToolComplete) {
			n++
		}
	}
	kept := 0
	for _, m := range ctx.Messages {
		if m.Entry < ctx.Compaction && s.Events[m.Entry].Type != TypeSystem {
			kept++
		}
	}
	return max(n-kept, 0)
}

// Summary preamble and framing of a compacted history, as Copilot sends it.
const (
	summaryHead = "Some of the conversation history has been summarized to free up context.\n\nYou were originally given instructions from a user over one or more turns. Here were the user messages:\n"
	summaryMid  = "\nHere is a summary of the prior context:\n<summary>\n"
	summaryTail = "\n</summary>\n"
)

// WriteContextJSON writes a context as the messages Copilot sends for it
// to an OpenAI-compatible provider (chat completions): {"messages":[...]},
// each {role, content}; an assistant's tool_calls with their arguments as
// a JSON string; a tool result's tool_call_id and the
// __copilotMessageSource Copilot adds (the tool, or for a task call the
// sub-agent it started); a user message's text as the model
// got it (transformedContent); a compaction as the user message that
// carries its summary.
func (s *Session) WriteContextJSON(w io.Writer, ctx model.Context) error {
	var buf bytes.Buffer
	buf.WriteString(`{"messages":[`)
	for k, m := range ctx.Messages {
		if k > 0 {
			buf.WriteByte(',')
		}
		buf.Write(s.AppendChatMessage(nil, ctx, m))
	}
	buf.WriteString("]}\n")
	_, err := w.Write(buf.Bytes())
	return err
}

// AppendChatMessage appends context message m as Copilot sends it.
func (s *Session) AppendChatMessage(b []byte, ctx model.Context, m model.ContextMessage) []byte {
	if m.Entry < 0 || m.Entry >= len(s.Events) {
		return append(b, "null"...)
	}
	e := &s.Events[m.Entry]
	d := e.Data
	obj := func(role string) []byte {
		b = append(b, `{"role":`...)
		return jsjson.AppendString(b, role)
	}
	switch {
	case m.Kind == model.KindCompactionSummary:
		b = obj("user")
		b = append(b, `,"content":`...)
		b = jsjson.AppendString(b, s.summaryMessage(ctx, m.Entry))
	case e.Type == TypeSystem:
		b = obj("system")
		b = append(b, `,"content":`...)
		b = jsjson.AppendString(b, str(d, "content"))
	case e.Type == TypeUser:
		t, ok := jscan.String(jscan.Member(d, "transformedContent"))
		if !ok {
			t = str(d, "content")
		}
		b = obj("user")
		b = append(b, `,"content":`...)
		b = jsjson.AppendString(b, t)
	case e.Type == TypeAssistant:
		b = obj("assistant")
		b = append(b, `,"content":`...)
		if c := str(d, "content"); c != "" {
			b = jsjson.AppendString(b, c)
		} else {
			b = append(b, "null"...)
		}
		n := 0
		jscan.Items(jscan.Member(d, "toolRequests"), func(v []byte) bool {
			if n == 0 {
				b = append(b, `,"tool_calls":[`...)
			} else {
				b = append(b, ',')
			}
			n++
			b = append(b, `{"id":`...)
			b = jsjson.AppendString(b, str(v, "toolCallId"))
			b = append(b, `,"type":"function","function":{"name":`...)
			b = jsjson.AppendString(b, str(v, "name"))
			b = append(b, `,"arguments":`...)
			args := jscan.Member(v, "arguments")
			if s, ok := jscan.String(args); ok {
				b = jsjson.AppendString(b, s)
			} else {
				var c bytes.Buffer
				if json.Compact(&c, args) != nil {
					c.Reset()
					c.WriteString("{}")
				}
				b = jsjson.AppendString(b, c.String())
			}
			b = append(b, "}}"...)
			return true
		})
		if n > 0 {
			b = append(b, ']')
		}
	case e.Type == TypeToolComplete:
		id := str(d, "toolCallId")
		b = obj("tool")
		b = append(b, `,"tool_call_id":`...)
		b = jsjson.AppendString(b, id)
		b = append(b, `,"content":`...)
		b = jsjson.AppendString(b, resultText(d))
		if c, ok := s.calls[id]; ok {
			jscan.Items(jscan.Member(s.Events[c].Data, "toolRequests"), func(v []byte) bool {
				if str(v, "toolCallId") != id {
					return true
				}
				kind, name := "tool", str(v, "name")
				if a, ok := s.subagents[id]; ok {
					kind, name = "subagent", str(s.Events[a].Data, "agentName")
				}
				b = append(b, `,"__copilotMessageSource":{"kind":`...)
				b = jsjson.AppendString(b, kind)
				b = append(b, `,"name":`...)
				b = jsjson.AppendString(b, name)
				b = append(b, `,"summary":`...)
				b = jsjson.AppendString(b, str(v, "intentionSummary"))
				b = append(b, '}')
				return false
			})
		}
	default:
		b = obj("user")
		b = append(b, `,"content":`...)
		b = jsjson.AppendString(b, string(e.Raw))
	}
	return append(b, '}')
}

// summaryMessage is the user message that stands for the history a
// compaction replaced: the user's messages before its start (as typed),
// then its summary.
func (s *Session) summaryMessage(ctx model.Context, at int) string {
	path := ctx.Path
	k := slices.Index(path, at)
	if k < 0 {
		path = s.pathTo(at)
		k = len(path) - 1
	}
	start := s.compactionStart(path, k)
	var b bytes.Buffer
	b.WriteString(summaryHead)
	for _, i := range path[:max(start, 0)] {
		if e := &s.Events[i]; e.Type == TypeUser && e.AgentID == "" {
			b.WriteString("<user_message>\n")
			b.WriteString(str(e.Data, "content"))
			b.WriteString("\n</user_message>\n")
		}
	}
	b.WriteString(summaryMid)
	b.WriteString(str(s.Events[at].Data, "summaryContent"))
	b.WriteString(summaryTail)
	return b.String()
}
