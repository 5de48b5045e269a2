package dhara05

import (
	"skein/internal/jscan"
	"skein/model"
)

// A Dhara 0.5 Session is a model.Source.
var _ model.Source = (*Session)(nil)

// Domain is the session as the domain sees it.
func (s *Session) Domain(info model.SessionInfo) *model.Session {
	return model.NewSession(s, info.Fill(Format, func() string { return s.Meta.SessionID }, func() string { return s.Meta.Cwd }))
}

// Of returns the Dhara 0.5 session behind a domain session, or nil.
func Of(s *model.Session) *Session { return model.SourceOf[*Session](s) }

// Leaf is Dhara's head after a load: the entry of the file's last line
// (session.ts importSession, "last one wins"), -1 for none.
func (s *Session) Leaf() int { return s.leaf }

// Head is the entry in the domain's terms, without its parent's id
// (model.EntryTree adds it): a message (its role the model's), or a branch
// marker or unknown line as EntryOther with its type.
func (e *Entry) Head() model.Entry {
	return model.Entry{Kind: e.kind, Type: e.Type, Role: e.role, ID: e.ID, Timestamp: e.Timestamp, Line: e.Line}
}

// Detail is a branch marker's label.
func (s *Session) Detail(i int) model.Detail {
	e := &s.Entries[i]
	if e.Type == TypeBranch {
		return model.Detail{Label: e.Label}
	}
	return model.Detail{}
}

func (s *Session) Index(id string) (int, bool) {
	i, ok := s.byID[id]
	return i, ok
}

// Label is a branch marker's own label: Dhara 0.5 labels nothing else.
func (s *Session) Label(i int) (string, bool) {
	e := &s.Entries[i]
	if e.Type == TypeBranch && e.HasLabel && e.Label != "" {
		return e.Label, true
	}
	return "", false
}

// Name is the meta line's title, which Dhara 0.5 never writes.
func (s *Session) Name() string { return s.Meta.Title }

// Raw is the entry's line as stored.
func (s *Session) Raw(i int) []byte { return s.Entries[i].Raw }

// Problems are what reading found.
func (s *Session) Problems() []model.Diagnostic { return s.Diagnostics }

// Message is a context message's content, normalized.
func (s *Session) Message(m model.ContextMessage) model.Message { return s.message(m.Entry, true) }

// MessageHead is Message without its content blocks.
func (s *Session) MessageHead(m model.ContextMessage) model.Message { return s.message(m.Entry, false) }

// message reads an entry line: the reasoningContent as a thinking block,
// then the content blocks, then the toolCalls as tool call blocks; the
// model (the entry's, else the meta line's, which is what agent-loop.ts
// sends every request with); metadata.tokenCount and cost as usage; a
// tool result's call and tool.
func (s *Session) message(i int, content bool) model.Message {
	e := &s.Entries[i]
	msg := model.Message{Role: e.role}
	if msg.Role == "" {
		msg.Role = e.Role
	}
	msg.SetTime(e.Timestamp)
	var blocks, calls []byte
	var reasoning string
	jscan.Fields(e.Raw, func(k, v []byte) bool {
		switch jscan.Key(k) {
		case "content":
			blocks = v
		case "toolCalls":
			calls = v
		case "reasoningContent":
			reasoning, _ = jscan.String(v)
		case "model":
			if len(v) > 0 && v[0] == '{' {
				msg.Model, _ = jscan.String(jscan.Member(v, "id"))
				msg.Provider, _ = jscan.String(jscan.Member(v, "provider"))
			} else {
				msg.Model, _ = jscan.String(v)
			}
		case "metadata":
			msg.Usage = usageOf(v)
		case "isError":
			msg.IsError = string(v) == "true"
		}
		return true
	})
	if e.role == model.RoleAssistant && msg.Model == "" && msg.Provider == "" {
		msg.Model, msg.Provider = s.Meta.ModelID, s.Meta.Provider
	}
	if e.role == model.RoleToolResult {
		msg.ToolCallID, msg.ToolName = e.ToolCallID, e.ToolName
		if msg.ToolName == "" && msg.ToolCallID != "" {
			msg.ToolName = s.CallName(msg.ToolCallID)
		}
	}
	if !content {
		return msg
	}
	if reasoning != "" {
		msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockThinking, Name: "reasoningContent", Text: reasoning})
	}
	msg.Blocks = append(msg.Blocks, blocksOf(blocks)...)
	msg.Blocks = append(msg.Blocks, callsOf(calls)...)
	return msg
}

// CallName is the tool of the call with this id, from the assistant
// entries' toolCalls; "" when no entry made it.
func (s *Session) CallName(id string) string {
	s.namesOnce.Do(func() {
		s.callNames = map[string]string{}
		for i := range s.Entries {
			if s.Entries[i].role != model.RoleAssistant {
				continue
			}
			for _, b := range callsOf(jscan.Member(s.Entries[i].Raw, "toolCalls")) {
				if _, ok := s.callNames[b.Call.ID]; !ok {
					s.callNames[b.Call.ID] = b.Call.Name
				}
			}
		}
	})
	return s.callNames[id]
}

// blocksOf reads a content value (session.ts ContentBlock: text, thinking
// with text, image with data and mimeType, file with path); a string is
// one text block, as the spec's examples write it.
func blocksOf(content []byte) []model.Block {
	if s, ok := jscan.String(content); ok {
		return []model.Block{{Type: model.BlockText, Name: "text", Text: s}}
	}
	if len(content) == 0 || content[0] != '[' {
		return nil
	}
	var out []model.Block
	_ = jscan.Elements(content, func(b []byte) bool {
		var blk model.Block
		var text, thinking, data, path []byte
		jscan.Fields(b, func(k, v []byte) bool {
			switch jscan.Key(k) {
			case "type":
				blk.Name, _ = jscan.String(v)
			case "text":
				text = v
			case "thinking":
				thinking = v
			case "mimeType":
				blk.MimeType, _ = jscan.String(v)
			case "data":
				data = v
			case "path":
				path = v
			}
			return true
		})
		switch blk.Name {
		case "text":
			blk.Type = model.BlockText
			blk.Text, _ = jscan.String(text)
		case "thinking":
			blk.Type = model.BlockThinking
			if blk.Text, _ = jscan.String(text); blk.Text == "" {
				blk.Text, _ = jscan.String(thinking)
			}
		case "image":
			blk.Type = model.BlockImage
			if jscan.IsString(data) && len(data) >= 2 {
				blk.DataLen = len(data) - 2
			}
		case "file":
			blk.Text, _ = jscan.String(path) // BlockOther: the path, for what wants it
		}
		out = append(out, blk)
		return true
	})
	return out
}

// callsOf reads a toolCalls value (session.ts ToolCall: id, name, input)
// as tool call blocks, normalized as model.ToolCall says: toolCallId, then
// id; toolName, then name; input, then arguments, the first that is an
// object; defaults "", "", {}.
func callsOf(calls []byte) []model.Block {
	if len(calls) == 0 || calls[0] != '[' {
		return nil
	}
	var out []model.Block
	_ = jscan.Elements(calls, func(c []byte) bool {
		if len(c) == 0 || c[0] != '{' {
			return true
		}
		var id, altID, name, altName string
		var hasID, hasName bool
		var input, args []byte
		jscan.Fields(c, func(k, v []byte) bool {
			switch jscan.Key(k) {
			case "toolCallId":
				id, hasID = jscan.String(v)
			case "id":
				altID, _ = jscan.String(v)
			case "toolName":
				name, hasName = jscan.String(v)
			case "name":
				altName, _ = jscan.String(v)
			case "input":
				input = v
			case "arguments":
				args = v
			}
			return true
		})
		if !hasID {
			id = altID
		}
		if !hasName {
			name = altName
		}
		in := []byte("{}")
		switch {
		case len(input) > 0 && input[0] == '{':
			in = input
		case len(args) > 0 && args[0] == '{':
			in = args
		}
		out = append(out, model.Block{Type: model.BlockToolCall, Name: "toolCall",
			Call: model.ToolCall{ID: id, Name: name, Input: append([]byte(nil), in...)}})
		return true
	})
	return out
}

// usageOf reads an entry's metadata: tokenCount {input, output} and cost
// {input, output, currency} (session.ts SessionEntry.metadata); nil when it
// has neither.
func usageOf(meta []byte) *model.Usage {
	if len(meta) == 0 || meta[0] != '{' {
		return nil
	}
	tokens, cost := jscan.Member(meta, "tokenCount"), jscan.Member(meta, "cost")
	tokensOK := len(tokens) > 0 && tokens[0] == '{'
	costOK := len(cost) > 0 && cost[0] == '{'
	if !tokensOK && !costOK {
		return nil
	}
	u := &model.Usage{}
	if tokensOK {
		u.Input, _ = jscan.Number(jscan.Member(tokens, "input"))
		u.Output, _ = jscan.Number(jscan.Member(tokens, "output"))
	}
	if costOK {
		in, ok1 := jscan.Number(jscan.Member(cost, "input"))
		out, ok2 := jscan.Number(jscan.Member(cost, "output"))
		if ok1 || ok2 {
			u.Cost, u.HasCost = in+out, true
		}
	}
	return u
}

// incomplete reports whether a metadata's tokenCount lacks a number.
func incomplete(meta []byte) bool {
	tokens := jscan.Member(meta, "tokenCount")
	if len(tokens) == 0 || tokens[0] != '{' {
		return false
	}
	_, ok1 := jscan.Number(jscan.Member(tokens, "input"))
	_, ok2 := jscan.Number(jscan.Member(tokens, "output"))
	return !ok1 || !ok2
}
