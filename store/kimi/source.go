package kimi

import (
	"strings"

	"skein/internal/jscan"
	"skein/model"
)

// A Kimi Code Session is a model.Source.
var _ model.Source = (*Session)(nil)

// Domain is the session as the domain sees it.
func (s *Session) Domain(info model.SessionInfo) *model.Session {
	return model.NewSession(s, info.Fill(Format, func() string { return s.ID }, func() string { return s.cwd }))
}

func (s *Session) Len() int                     { return len(s.Entries) }
func (s *Session) Leaf() int                    { return s.leaf }
func (s *Session) Raw(i int) []byte             { return s.Entries[i].Raw }
func (s *Session) Problems() []model.Diagnostic { return s.Diagnostics }

// Entry is the entry in the domain's terms; Type is the record's type, a
// loop event's "context.append_loop_event/<event>".
func (s *Session) Entry(i int) model.Entry {
	e := &s.Entries[i]
	typ := e.Type
	if e.Event != "" {
		typ += "/" + e.Event
	}
	me := model.Entry{Kind: e.kind, Type: typ, Role: e.role, ID: e.Agent + ":" + itoa(e.Line), Line: e.Line}
	if t := e.Time; t > 0 {
		me.Timestamp = jsdateISO(t)
	}
	if p := s.Parent(i); p >= 0 {
		me.ParentID = s.Entries[p].Agent + ":" + itoa(s.Entries[p].Line)
	}
	return me
}

// Message is an entry's message: a context.append_message's, a step's
// (its content.part and tool.call events, its step.end's usage), a
// tool.result's, or a compaction's summary.
func (s *Session) Message(m model.ContextMessage) model.Message {
	if m.Entry < 0 || m.Entry >= len(s.Entries) {
		return model.Message{}
	}
	e := &s.Entries[m.Entry]
	msg := model.Message{Role: e.role}
	if e.Time > 0 {
		msg.Time, msg.HasTime = e.Time, true
	}
	switch {
	case e.Type == TypeAppendMsg:
		wm := jscan.ObjectMember(e.Raw, "message")
		msg.Blocks = partsBlocks(jscan.ObjectMember(wm, "content"))
		msg.Injected = jscan.StringMember(jscan.ObjectMember(wm, "origin"), "kind") == "injection"
		if msg.Role == model.RoleToolResult {
			msg.ToolCallID = jscan.StringMember(wm, "toolCallId")
		}
	case e.Event == "step.begin":
		msg.Model = e.Model
		for j := m.Entry + 1; j < len(s.Entries) && s.Entries[j].Agent == e.Agent; j++ {
			p := &s.Entries[j]
			if p.Event == "step.begin" {
				break
			}
			if p.Step != e.Step {
				continue
			}
			ev := jscan.ObjectMember(p.Raw, "event")
			switch p.Event {
			case "content.part":
				msg.Blocks = append(msg.Blocks, partsBlocks([]byte("["+string(jscan.ObjectMember(ev, "part"))+"]"))...)
			case "tool.call":
				args := jscan.ObjectMember(ev, "args")
				if len(args) == 0 || args[0] != '{' {
					args = []byte("{}")
				}
				msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockToolCall, Name: "tool.call", Call: model.ToolCall{ID: p.CallID, Name: jscan.StringMember(ev, "name"), Input: args}})
			}
		}
		if end, ok := s.stepEnd[m.Entry]; ok {
			ev := jscan.ObjectMember(s.Entries[end].Raw, "event")
			msg.StopReason = jscan.StringMember(ev, "finishReason")
			if u := usageOf(jscan.ObjectMember(ev, "usage")); u != nil {
				msg.Usage = u
			}
		}
	case e.Event == "tool.result":
		res := jscan.ObjectMember(jscan.ObjectMember(e.Raw, "event"), "result")
		msg.ToolCallID = e.CallID
		msg.IsError = string(jscan.ObjectMember(res, "isError")) == "true"
		out := jscan.ObjectMember(res, "output")
		if t, ok := jscan.String(out); ok {
			msg.Blocks = []model.Block{{Type: model.BlockText, Text: t}}
		} else {
			msg.Blocks = partsBlocks(out)
		}
		msg.ToolName = s.callName(m.Entry, e.CallID)
	case e.Type == TypeCompaction:
		msg.Summary = s.summaryOf(m.Entry)
		msg.TokensBefore, _ = jscan.Number(jscan.ObjectMember(e.Raw, "tokensBefore"))
	}
	return msg
}

// callName is the name of the call a tool.result at i answers.
func (s *Session) callName(i int, id string) string {
	for j := i - 1; j >= 0 && s.Entries[j].Agent == s.Entries[i].Agent; j-- {
		if s.Entries[j].Event == "tool.call" && s.Entries[j].CallID == id {
			return jscan.StringMember(jscan.ObjectMember(s.Entries[j].Raw, "event"), "name")
		}
	}
	return ""
}

// summaryOf is a compaction's summary: its summary (a string or a
// message), else its contextSummary.
func (s *Session) summaryOf(i int) string {
	raw := s.Entries[i].Raw
	sum := jscan.ObjectMember(raw, "summary")
	if t, ok := jscan.String(sum); ok {
		return t
	}
	if len(sum) > 0 && sum[0] == '{' {
		var b strings.Builder
		for _, bl := range partsBlocks(jscan.ObjectMember(sum, "content")) {
			b.WriteString(bl.Text)
		}
		return b.String()
	}
	return jscan.StringMember(raw, "contextSummary")
}

// partsBlocks are a wire message's content parts as blocks: text, think
// (thinking), image_url.
func partsBlocks(parts []byte) []model.Block {
	var out []model.Block
	jscan.Items(parts, func(p []byte) bool {
		switch jscan.StringMember(p, "type") {
		case "text":
			out = append(out, model.Block{Type: model.BlockText, Name: "text", Text: jscan.StringMember(p, "text")})
		case "think":
			out = append(out, model.Block{Type: model.BlockThinking, Name: "think", Text: jscan.StringMember(p, "think")})
		case "image_url":
			url := jscan.StringMember(jscan.ObjectMember(p, "image_url"), "url")
			out = append(out, model.Block{Type: model.BlockImage, Name: "image_url", DataLen: len(url)})
		default:
			out = append(out, model.Block{Type: model.BlockOther, Name: jscan.StringMember(p, "type")})
		}
		return true
	})
	return out
}

// usageOf is a wire usage object ({inputOther, output, inputCacheRead,
// inputCacheCreation}) as the domain's.
func usageOf(u []byte) *model.Usage {
	if len(u) == 0 || u[0] != '{' {
		return nil
	}
	n := func(k string) float64 { v, _ := jscan.Number(jscan.ObjectMember(u, k)); return v }
	return &model.Usage{Input: n("inputOther"), Output: n("output"), CacheRead: n("inputCacheRead"), CacheWrite: n("inputCacheCreation")}
}

// Info is the session's record in the list: its id (the session folder's
// name), cwd (the main agent's profile.bind), first prompt (the first
// message the user typed), the first and last record's times, the
// message count and the model of the last request.
func (s *Session) Info(path string, mtimeMs float64) model.SessionInfo {
	info := model.SessionInfo{Path: path, Format: Format, ID: s.IDOf(path), Cwd: s.cwd, Entries: len(s.Entries), Branches: 1}
	var span model.TimeSpan
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Time > 0 {
			span.Add(e.Time)
		}
		if e.kind == model.EntryMessage {
			info.MessageCount++
		}
		if info.FirstMessage == "" && e.Type == TypeAppendMsg && e.Agent == "main" && jscan.StringMember(jscan.ObjectMember(jscan.ObjectMember(e.Raw, "message"), "origin"), "kind") == "user" {
			m := s.Message(model.ContextMessage{Entry: i})
			info.FirstMessage = strings.TrimSpace(m.Text(" "))
		}
		if e.Event == "step.begin" && e.Model != "" && e.Agent == "main" {
			info.Model = e.Model
		}
	}
	if info.FirstMessage == "" {
		info.FirstMessage = model.NoMessages
	}
	span.Set(&info, mtimeMs)
	return info
}

// Stats are the session's totals: messages by role, calls by tool, and
// the tokens of every usage.record (the main agent's and the
// sub-agents'), each under the model of the llm.request before it (a
// usage.record names the model's alias, "__kimi_env_model__" for one
// given by KIMI_MODEL_NAME).
func (s *Session) Stats() model.Stats {
	st := model.NewStatsTally()
	st.Leaves = 1
	for i := range s.Entries {
		e := &s.Entries[i]
		d := st.Begin(e.Time)
		switch {
		case e.kind == model.EntryMessage:
			d.AddMessage(e.role)
		case e.Event == "tool.call":
			st.Tool(&d, jscan.StringMember(jscan.ObjectMember(e.Raw, "event"), "name"))
		case e.kind == model.EntryCompaction:
			st.Compactions++
		case e.Type == TypeUsage:
			m := e.Model
			if m == "" {
				m = jscan.StringMember(e.Raw, "model")
			}
			if u := usageOf(jscan.ObjectMember(e.Raw, "usage")); u != nil {
				st.Model(m)
				ut := model.UsageTotals{TokensIn: u.Input, TokensOut: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite}
				if ut.Tokens() > 0 {
					st.PricedUsage(&d, m, m, ut) // Kimi Code records no cost
				}
			}
		}
		st.End(e.Time, d)
	}
	return st.Done(nil)
}
