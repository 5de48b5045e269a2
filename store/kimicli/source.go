package kimicli

import (
	"strconv"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
)

// A legacy Kimi CLI Session is a model.Source.
var _ model.Source = (*Session)(nil)

// Domain is the session as the domain sees it.
func (s *Session) Domain(info model.SessionInfo) *model.Session {
	return model.NewSession(s, info.Fill(Format, func() string { return s.ID }, func() string { return s.cwd }))
}

func (s *Session) Len() int                     { return len(s.Entries) }
func (s *Session) Leaf() int                    { return s.leaf }
func (s *Session) Raw(i int) []byte             { return s.Entries[i].Raw }
func (s *Session) Problems() []model.Diagnostic { return s.Diagnostics }

// Entry is the entry in the domain's terms; its id is its line.
func (s *Session) Entry(i int) model.Entry {
	e := &s.Entries[i]
	me := model.Entry{Kind: e.kind, Type: e.Type, Role: e.role, ID: strconv.Itoa(e.Line), Line: e.Line}
	if e.Time > 0 {
		me.Timestamp, _ = jsdate.ISO(e.Time)
	}
	if p := s.Parent(i); p >= 0 {
		me.ParentID = strconv.Itoa(s.Entries[p].Line)
	}
	return me
}

// Message is an entry's message: a TurnBegin's or SteerInput's user_input,
// a step's (the ContentParts and ToolCalls up to the next StepBegin or
// TurnBegin, their ToolCallParts appended to the call's arguments, the
// StatusUpdate's token_usage), a ToolResult's return_value.
func (s *Session) Message(m model.ContextMessage) model.Message {
	if m.Entry < 0 || m.Entry >= len(s.Entries) {
		return model.Message{}
	}
	e := &s.Entries[m.Entry]
	msg := model.Message{Role: e.role}
	if e.Time > 0 {
		msg.Time, msg.HasTime = e.Time, true
	}
	switch e.Type {
	case TypeTurnBegin, TypeSteer:
		msg.Blocks = inputBlocks(jscan.ObjectMember(e.Payload, "user_input"))
	case TypeStepBegin:
		last := -1 // the block of the last ToolCall, for its ToolCallParts
		var args []byte
		seal := func() {
			if last >= 0 {
				if len(args) == 0 || !jscan.Valid(args) || args[0] != '{' {
					args = []byte("{}")
				}
				msg.Blocks[last].Call.Input = args
			}
		}
		for j := m.Entry + 1; j < len(s.Entries); j++ {
			p := &s.Entries[j]
			if p.Type == TypeStepBegin || p.Type == TypeTurnBegin || p.Type == TypeSteer || p.Type == "TurnEnd" {
				break
			}
			switch p.Type {
			case TypePart:
				msg.Blocks = appendPart(msg.Blocks, p.Payload)
			case TypeToolCall:
				seal()
				fn := jscan.ObjectMember(p.Payload, "function")
				args = []byte(jscan.StringMember(fn, "arguments"))
				msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockToolCall, Name: "function", Call: model.ToolCall{ID: p.CallID, Name: jscan.StringMember(fn, "name")}})
				last = len(msg.Blocks) - 1
			case TypeCallPart:
				args = append(args, jscan.StringMember(p.Payload, "arguments_part")...)
			case TypeStatus:
				if u := usageOf(jscan.ObjectMember(p.Payload, "token_usage")); u != nil {
					msg.Usage = u
				}
			}
		}
		seal()
	case TypeToolResult:
		rv := jscan.ObjectMember(e.Payload, "return_value")
		msg.ToolCallID = e.CallID
		msg.IsError = string(jscan.ObjectMember(rv, "is_error")) == "true"
		// As tool_result_to_message puts it to the model, less its
		// <system> tags: an error's message before the output; an ok
		// result's output, its message only when there is no output.
		var out []model.Block
		if t, ok := jscan.String(jscan.ObjectMember(rv, "output")); ok {
			if t != "" {
				out = []model.Block{{Type: model.BlockText, Text: t}}
			}
		} else {
			out = inputBlocks(jscan.ObjectMember(rv, "output"))
		}
		if t := jscan.StringMember(rv, "message"); t != "" && (msg.IsError || len(out) == 0) {
			msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockText, Text: t})
		}
		msg.Blocks = append(msg.Blocks, out...)
		msg.ToolName = s.callName(m.Entry, e.CallID)
	}
	return msg
}

// callName is the name of the call a ToolResult at i answers.
func (s *Session) callName(i int, id string) string {
	for j := i - 1; j >= 0; j-- {
		if s.Entries[j].Type == TypeToolCall && s.Entries[j].CallID == id {
			return jscan.StringMember(jscan.ObjectMember(s.Entries[j].Payload, "function"), "name")
		}
	}
	return ""
}

// inputBlocks are a user_input or an output: a string, or content parts.
func inputBlocks(v []byte) []model.Block {
	if t, ok := jscan.String(v); ok {
		return []model.Block{{Type: model.BlockText, Name: "text", Text: t}}
	}
	var out []model.Block
	jscan.Items(v, func(p []byte) bool { out = appendPart(out, p); return true })
	return out
}

// appendPart appends a content part (text, think, image_url...), a text or
// think part joined to the one before it of its kind, as the wire's merge
// would have.
func appendPart(out []model.Block, p []byte) []model.Block {
	switch jscan.StringMember(p, "type") {
	case "text":
		t := jscan.StringMember(p, "text")
		if n := len(out); n > 0 && out[n-1].Type == model.BlockText {
			out[n-1].Text += t
			return out
		}
		return append(out, model.Block{Type: model.BlockText, Name: "text", Text: t})
	case "think":
		t := jscan.StringMember(p, "think")
		if n := len(out); n > 0 && out[n-1].Type == model.BlockThinking {
			out[n-1].Text += t
			return out
		}
		return append(out, model.Block{Type: model.BlockThinking, Name: "think", Text: t})
	case "image_url":
		url := jscan.StringMember(jscan.ObjectMember(p, "image_url"), "url")
		return append(out, model.Block{Type: model.BlockImage, Name: "image_url", DataLen: len(url)})
	}
	return append(out, model.Block{Type: model.BlockOther, Name: jscan.StringMember(p, "type")})
}

// usageOf is a TokenUsage ({input_other, output, input_cache_read,
// input_cache_creation}) as the domain's.
func usageOf(u []byte) *model.Usage {
	if len(u) == 0 || u[0] != '{' {
		return nil
	}
	n := func(k string) float64 { v, _ := jscan.Number(jscan.ObjectMember(u, k)); return v }
	return &model.Usage{Input: n("input_other"), Output: n("output"), CacheRead: n("input_cache_read"), CacheWrite: n("input_cache_creation")}
}

// BuildContext is the messages from the root to leaf, in order. The CLI
// resumes from context.jsonl, not from the wire; the two hold the same
// turns until a /undo (a checkpoint revert) or a compaction rewrites
// context.jsonl, which the wire does not record beyond CompactionEnd.
func (s *Session) BuildContext(leaf int) model.Context {
	ctx, ok := s.PathContext(leaf)
	if !ok {
		return ctx
	}
	for _, i := range ctx.Path {
		if s.Entries[i].kind == model.EntryMessage {
			ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i, Kind: model.KindMessage})
		}
	}
	return ctx
}

// Info is the session's record in the list: its id (the session folder's
// name), cwd (from kimi.json, see Open), first prompt, times, message count.
// The wire names no model.
func (s *Session) Info(path string, mtimeMs float64) model.SessionInfo {
	info := model.SessionInfo{Path: path, Format: Format, ID: s.ID, Cwd: s.cwd, Entries: len(s.Entries), Branches: 1}
	var span model.TimeSpan
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Time > 0 {
			span.Add(e.Time)
		}
		if e.kind == model.EntryMessage {
			info.MessageCount++
		}
		if info.FirstMessage == "" && e.Type == TypeTurnBegin {
			m := s.Message(model.ContextMessage{Entry: i})
			info.FirstMessage = strings.TrimSpace(m.Text(" "))
		}
	}
	if info.FirstMessage == "" {
		info.FirstMessage = model.NoMessages
	}
	span.Set(&info, mtimeMs)
	return info
}

// Stats are the session's totals: messages by role, calls by tool,
// compactions, and the tokens of every StatusUpdate's token_usage (one a
// step), under the model "kimi" as the wire names none.
func (s *Session) Stats() model.Stats {
	st := model.NewStatsTally()
	st.Leaves = 1
	for i := range s.Entries {
		e := &s.Entries[i]
		d := st.Begin(e.Time)
		switch {
		case e.kind == model.EntryMessage:
			d.AddMessage(e.role)
		case e.Type == TypeToolCall:
			st.Tool(&d, jscan.StringMember(jscan.ObjectMember(e.Payload, "function"), "name"))
		case e.Type == TypeCompaction:
			st.Compactions++
		case e.kind == model.EntryUsage:
			if u := usageOf(jscan.ObjectMember(e.Payload, "token_usage")); u != nil {
				ut := model.UsageTotals{TokensIn: u.Input, TokensOut: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite}
				if ut.Tokens() > 0 {
					st.Model(UnknownModel)
					st.PricedUsage(&d, UnknownModel, UnknownModel, ut) // the wire records no cost
				}
			}
		}
		st.End(e.Time, d)
	}
	return st.Done(nil)
}

// UnknownModel is the model the stats count tokens under: the wire does
// not name the model (it is in config.toml, which may have changed since).
const UnknownModel = "kimi-cli"
