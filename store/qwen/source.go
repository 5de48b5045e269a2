package qwen

import (
	"io"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
)

// A Qwen Code Session is a model.Source.
var _ model.Source = (*Session)(nil)

// Domain is the session as the domain sees it.
func (s *Session) Domain(info model.SessionInfo) *model.Session {
	return model.NewSession(s, info.Fill(Format, func() string { return s.ID }, s.cwd))
}

// Of returns the Qwen Code session behind a domain session, or nil.
func Of(s *model.Session) *Session { return model.SourceOf[*Session](s) }

func (s *Session) Len() int                     { return len(s.Entries) }
func (s *Session) Leaf() int                    { return s.leaf }
func (s *Session) Raw(i int) []byte             { return s.Entries[i].Raw }
func (s *Session) Name() string                 { return s.title }
func (s *Session) Problems() []model.Diagnostic { return s.Diagnostics }

// Entry is the entry in the domain's terms; Type is the record's type, a
// system record's "system/<subtype>".
func (s *Session) Entry(i int) model.Entry {
	e := &s.Entries[i]
	me := model.Entry{Kind: e.kind, Type: e.typ(), Role: e.role, ID: e.ID(), Timestamp: e.Timestamp, Line: e.Line}
	if p := s.Parent(i); p >= 0 {
		me.ParentID = s.Entries[p].ID()
	}
	return me
}

func (e *Entry) typ() string {
	if e.Type == TypeSystem && e.Subtype != "" {
		return "system/" + e.Subtype
	}
	return e.Type
}

// Index is the entry whose id is id.
func (s *Session) Index(id string) (int, bool) {
	if i, ok := s.byUUID[id]; ok {
		return i, true
	}
	for i := range s.Entries {
		if s.Entries[i].ID() == id {
			return i, true
		}
	}
	return -1, false
}

// Detail is a title's name, a model change's model.
func (s *Session) Detail(i int) model.Detail {
	e := &s.Entries[i]
	switch e.kind {
	case model.EntryTitle:
		return model.Detail{Title: jscan.StringMember(e.Payload, "customTitle")}
	case model.EntryModelChange:
		return model.Detail{Model: modelOf(e.Payload)}
	case model.EntryUsage:
		return model.Detail{CustomType: e.typ()}
	}
	return model.Detail{}
}

// modelOf is a session_model payload's model: its model, else its modelId.
func modelOf(p []byte) string {
	if m := jscan.StringMember(p, "model"); m != "" {
		return m
	}
	return jscan.StringMember(p, "modelId")
}

// Message is a context message's content, normalized: a user's text and
// images, an assistant's text, thoughts and function calls with its
// usage, a tool result (the Content's k-th functionResponse for a message
// whose Content is -(k+1)), an API error as an assistant's error, and a
// compressed history's k-th Content.
func (s *Session) Message(m model.ContextMessage) model.Message {
	if m.Entry < 0 || m.Entry >= len(s.Entries) {
		return model.Message{}
	}
	e := &s.Entries[m.Entry]
	msg := model.Message{Role: e.role}
	if t := jsdate.Parse(e.Timestamp); t == t {
		msg.Time, msg.HasTime = t, true
	}
	switch {
	case e.kind == model.EntryCompaction:
		if m.Content < 0 {
			if c := s.compressed(m.Entry, int(-m.Content)-1); c != nil {
				return contentMessage(c, msg)
			}
		}
		msg.Role = model.RoleCompactionSummary
		msg.Summary = s.summaryOf(m.Entry)
		return msg
	case e.Type == TypeSystem && e.kind == model.EntryMessage:
		ev := jscan.ObjectMember(e.Payload, "uiEvent")
		msg.Error = jscan.StringMember(ev, "error_message")
		if msg.Error == "" {
			msg.Error = jscan.StringMember(ev, "error")
		}
		if msg.Error == "" {
			msg.Error = "API error"
		}
		if code := jscan.ObjectMember(ev, "status_code"); code != nil {
			msg.Error += " (status " + string(code) + ")"
		}
		msg.Model = jscan.StringMember(ev, "model")
		msg.StopReason = "error"
		msg.Excluded = true
		return msg
	case e.Type == TypeToolResult:
		return s.toolResult(m, msg)
	}
	var parts [][]byte
	if e.kind == model.EntryMessage {
		parts = s.parts(m.Entry)
	}
	msg.Blocks = blocks(parts, e.role == model.RoleUser)
	if e.Type == TypeAssistant {
		msg.Model = e.Model
		msg.Usage = usageOf(jscan.ObjectMember(e.Raw, "usageMetadata"))
	}
	return msg
}

// contentMessage is a Content of a compressed history as a message.
func contentMessage(c []byte, msg model.Message) model.Message {
	role := jscan.StringMember(c, "role")
	var parts [][]byte
	jscan.Items(jscan.ObjectMember(c, "parts"), func(v []byte) bool {
		parts = append(parts, v)
		return true
	})
	msg.Role = model.RoleUser
	if role == "model" {
		msg.Role = model.RoleAssistant
	}
	for _, p := range parts {
		if fr := jscan.ObjectMember(p, "functionResponse"); fr != nil && role != "model" {
			out := msg
			out.Role = model.RoleToolResult
			fillResult(&out, fr)
			return out
		}
	}
	msg.Blocks = blocks(parts, role != "model")
	return msg
}

// blocks are parts as content blocks: a text (a thought one as thinking),
// an inline image, a function call. A user's function responses are left
// to toolResult.
func blocks(parts [][]byte, user bool) []model.Block {
	var out []model.Block
	for _, p := range parts {
		if len(p) == 0 || p[0] != '{' {
			continue
		}
		var text, thought, fc, inline []byte
		jscan.Fields(p, func(k, v []byte) bool {
			switch jscan.Key(k) {
			case "text":
				text = v
			case "thought":
				thought = v
			case "functionCall":
				fc = v
			case "inlineData":
				inline = v
			}
			return true
		})
		switch {
		case text != nil:
			t, _ := jscan.String(text)
			if string(thought) == "true" {
				out = append(out, model.Block{Type: model.BlockThinking, Name: "thought", Text: t})
			} else {
				out = append(out, model.Block{Type: model.BlockText, Text: t})
			}
		case fc != nil && fc[0] == '{':
			args := jscan.ObjectMember(fc, "args")
			if len(args) == 0 || args[0] != '{' {
				args = []byte("{}")
			}
			out = append(out, model.Block{Type: model.BlockToolCall, Name: "functionCall",
				Call: model.ToolCall{ID: jscan.StringMember(fc, "id"), Name: jscan.StringMember(fc, "name"), Input: args}})
		case inline != nil && inline[0] == '{':
			data, _ := jscan.String(jscan.ObjectMember(inline, "data"))
			out = append(out, model.Block{Type: model.BlockImage, Name: "inlineData", MimeType: jscan.StringMember(inline, "mimeType"), DataLen: len(data), Data: data})
		}
	}
	return out
}

// toolResult is a tool_result record's k-th function response (k from
// the message's Content: 0 for the first).
func (s *Session) toolResult(m model.ContextMessage, msg model.Message) model.Message {
	k := 0
	if m.Content < 0 {
		k = int(-m.Content) - 1
	}
	e := &s.Entries[m.Entry]
	n := 0
	for _, p := range s.parts(m.Entry) {
		fr := jscan.ObjectMember(p, "functionResponse")
		if fr == nil {
			continue
		}
		if n == k {
			fillResult(&msg, fr)
			if st := jscan.StringMember(jscan.ObjectMember(e.Raw, "toolCallResult"), "status"); st == "error" && jscan.StringMember(jscan.ObjectMember(e.Raw, "toolCallResult"), "callId") == msg.ToolCallID {
				msg.IsError = true
			}
			if msg.ToolName == "" {
				if c, ok := s.calls[msg.ToolCallID]; ok {
					msg.ToolName = c.name
				}
			}
			return msg
		}
		n++
	}
	return msg
}

// fillResult reads a functionResponse: its id and name, and its text as
// Qwen Code sends it (extractFunctionResponseContent: response.output when
// a string, else response.error, else the response as JSON; then the
// texts of its parts); an error member makes it an error.
func fillResult(msg *model.Message, fr []byte) {
	msg.ToolCallID = jscan.StringMember(fr, "id")
	msg.ToolName = jscan.StringMember(fr, "name")
	resp := jscan.ObjectMember(fr, "response")
	var text string
	switch {
	case len(resp) == 0 || string(resp) == "null":
	case resp[0] == '"':
		text, _ = jscan.String(resp)
	case resp[0] == '{' && jscan.IsString(jscan.ObjectMember(resp, "output")):
		text = jscan.StringMember(resp, "output")
	case resp[0] == '{' && jscan.IsString(jscan.ObjectMember(resp, "error")):
		text = jscan.StringMember(resp, "error")
		msg.IsError = true
	default:
		text = string(resp)
	}
	if text != "" {
		msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockText, Text: text})
	}
	jscan.Items(jscan.ObjectMember(fr, "parts"), func(p []byte) bool {
		if t, ok := jscan.String(jscan.ObjectMember(p, "text")); ok && t != "" {
			msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockText, Text: t})
		}
		return true
	})
}

// usageOf reads a usageMetadata (Gemini's GenerateContentResponseUsageMetadata,
// which Qwen Code fills from every provider's usage): promptTokenCount
// counts the cached tokens, which skein counts apart as cache reads;
// candidatesTokenCount is the output, thoughtsTokenCount the reasoning
// within it.
func usageOf(u []byte) *model.Usage {
	if len(u) == 0 || u[0] != '{' {
		return nil
	}
	var t tokens
	jscan.Numbers(u, []string{"promptTokenCount", "candidatesTokenCount", "thoughtsTokenCount", "cachedContentTokenCount", "totalTokenCount"},
		&t.prompt, &t.out, &t.thoughts, &t.cached, &t.total)
	return &model.Usage{Input: max(t.prompt-t.cached, 0), CacheRead: t.cached, Output: t.out, Reasoning: t.thoughts, Total: t.total}
}

type tokens struct{ prompt, cached, out, thoughts, total float64 }

// compressed is chat_compression entry i's k-th Content of its
// compressedHistory, nil when there is none.
func (s *Session) compressed(i, k int) []byte {
	var out []byte
	n := 0
	jscan.Items(jscan.ObjectMember(s.Entries[i].Payload, "compressedHistory"), func(v []byte) bool {
		if n == k {
			out = v
			return false
		}
		n++
		return true
	})
	return out
}

// summaryOf is a compression's summary: the text of the first Content of
// its compressed history (Qwen Code puts the summary there as a user
// message), "" when it has none.
func (s *Session) summaryOf(i int) string {
	c := s.compressed(i, 0)
	var texts []string
	jscan.Items(jscan.ObjectMember(c, "parts"), func(p []byte) bool {
		if t, ok := jscan.String(jscan.ObjectMember(p, "text")); ok {
			texts = append(texts, t)
		}
		return true
	})
	if len(texts) == 0 {
		return ""
	}
	return texts[0]
}

// TreeText is entry i's line in the tree; a sub-agent's first entry names
// the agent.
func (s *Session) TreeText(i int, home string) []model.Part {
	parts := s.treeText(i, home)
	if e := &s.Entries[i]; e.File > 0 {
		if a := s.Agents[e.File-1]; a.Call >= 0 && s.Parent(i) == a.Call {
			name := "agent"
			if a.Type != "" {
				name += " " + model.OneLine(a.Type)
			}
			parts = append([]model.Part{{Text: "[" + name + "] ", Role: "label"}}, parts...)
		}
	}
	return parts
}

func (s *Session) treeText(i int, home string) []model.Part {
	e := &s.Entries[i]
	switch e.kind {
	case model.EntryMessage:
		msg := s.Message(model.ContextMessage{Entry: i})
		return model.MessageParts(&msg, e.role, home)
	case model.EntryCompaction:
		return []model.Part{{Text: "[compaction: " + model.OneLine(s.summaryOf(i)) + "]", Role: "compaction"}}
	case model.EntryTitle:
		return []model.Part{{Text: "[title: " + model.OneLine(s.Detail(i).Title) + "]", Role: "label"}}
	case model.EntryModelChange:
		return model.Mark("model: " + s.Detail(i).Model)
	case model.EntryUsage:
		ev := jscan.ObjectMember(e.Payload, "uiEvent")
		return model.Mark("api response: " + jscan.StringMember(ev, "model") + " " + string(jscan.ObjectMember(ev, "input_token_count")) + " in, " + string(jscan.ObjectMember(ev, "output_token_count")) + " out")
	}
	if e.fragment >= 0 {
		return model.Mark("fragment of " + e.UUID)
	}
	if e.Type == TypeSystem && e.Subtype == SubtypeTelemetry {
		return model.Mark(telemetryEvent(e.Payload))
	}
	return model.Mark(e.typ())
}

// WriteTreeJSON writes the tree as an array of root nodes {id, type, role,
// label, children}: id the entry's uuid, type the record's.
func (s *Session) WriteTreeJSON(w io.Writer) error {
	return model.WriteTree(w, s.Roots(), s.Children, func(buf []byte, i int) []byte {
		e := &s.Entries[i]
		return model.AppendTreeNode(buf, e.ID(), true, e.typ(), e.role, e.role != "", "", false)
	})
}

// TreeHidden marks the records the tree leaves out: the bookkeeping
// Qwen Code writes around every turn (attribution snapshots, telemetry of
// tool calls, fragments), which say nothing a message or a result does not.
// A response's usage, an API error, a compression and a title stay.
func (s *Session) TreeHidden() []bool {
	out := make([]bool, len(s.Entries))
	for i := range s.Entries {
		e := &s.Entries[i]
		out[i] = e.fragment >= 0 || e.kind == model.EntryOther && e.Type == TypeSystem &&
			(e.Subtype == "attribution_snapshot" || e.Subtype == SubtypeTelemetry)
	}
	return out
}
