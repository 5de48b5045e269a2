package dhara

import (
	"skein/internal/jscan"
	"skein/model"
)

// A Dhara Session is a model.Source.
var _ model.Source = (*Session)(nil)

// A message's ContextMessage.Content of -k folds its first k tool calls
// into it (DECISIONS.md 7): those on the context's path.

// Domain is the session as the domain sees it.
func (s *Session) Domain(info model.SessionInfo) *model.Session {
	info = info.Fill("", func() string { return s.Meta.ID }, func() string { return s.Meta.Cwd }).CreatedFrom(s.Meta.CreatedAt)
	if info.Name == "" {
		info.Name = s.Meta.Title
	}
	return model.NewSession(s, info)
}

// Of returns the Dhara session behind a domain session, or nil.
func Of(s *model.Session) *Session { return model.SourceOf[*Session](s) }

func (s *Session) Leaf() int { return s.leaf }

// Head is the entry in the domain's terms, without its parent's id, which
// model.EntryTree adds from tree.json's parents.
func (e *Entry) Head() model.Entry {
	return model.Entry{Kind: e.kind, Type: e.Type, Role: e.Role, ID: e.ID, Timestamp: e.Timestamp, Line: e.Line}
}

// Detail is what entry i says when it is not a message.
func (s *Session) Detail(i int) model.Detail {
	e := &s.Entries[i]
	str := func(k string) string { v, _ := jscan.String(jscan.Member(e.Raw, k)); return v }
	var d model.Detail
	switch e.Type {
	case TypeModelChange:
		d.Provider, d.Model = str("provider"), str("model")
	case TypeLabel:
		d.Target, d.Label = e.Ref, str("label")
	case TypeCustom:
		d.CustomType = str("customType")
	}
	return d
}

func (s *Session) Index(id string) (int, bool) {
	i, ok := s.byID.get(id)
	return i, ok
}

func (s *Session) Label(i int) (string, bool) {
	l, ok := s.labels[i]
	return l, ok
}

// Name is meta.json's title.
func (s *Session) Name() string { return s.Meta.Title }

// Raw is the entry's line as stored.
func (s *Session) Raw(i int) []byte { return s.Entries[i].Raw }

// Problems are what reading found: lines skipped, duplicates.
func (s *Session) Problems() []model.Diagnostic { return s.Diagnostics }

// Branches are the names of the branches that end at entry i.
func (s *Session) Branches(i int) []string { return s.tips[i] }

// ActiveBranch is the branch the agent resumes on (DECISIONS.md 6), nil
// when tree.json has none.
func (s *Session) ActiveBranch() *Branch {
	if s.active < 0 {
		return nil
	}
	return &s.Tree.Branches[s.active]
}

// Message is a context message's content, normalized.
func (s *Session) Message(m model.ContextMessage) model.Message { return s.message(m, true) }

// MessageHead is Message without its content blocks.
func (s *Session) MessageHead(m model.ContextMessage) model.Message { return s.message(m, false) }

func (s *Session) message(m model.ContextMessage, content bool) model.Message {
	e := &s.Entries[m.Entry]
	msg := model.Message{Role: e.Role}
	msg.SetTime(e.Timestamp)
	if m.Kind == model.KindCompactionSummary {
		msg.Role = model.RoleCompactionSummary
		msg.Summary, _ = jscan.String(jscan.Member(e.Raw, "summary"))
		msg.TokensBefore, _ = jscan.Number(jscan.Member(e.Raw, "tokensBefore"))
		return msg
	}
	switch e.Type {
	case TypeToolCall:
		if content {
			msg.Blocks = []model.Block{s.callBlock(m.Entry)}
		}
		return msg
	case TypeToolResult:
		msg.ToolCallID = e.Ref
		if j, ok := s.byID.get(e.Ref); ok {
			msg.ToolName = s.Entries[j].ToolName
		} else {
			msg.ToolName = s.CallNames[e.Ref]
		}
	}
	jscan.Fields(e.Raw, func(k, v []byte) bool {
		switch jscan.Key(k) {
		case "content":
			if content {
				msg.Blocks = blocksOf(v)
			}
		case "model":
			msg.Model, _ = jscan.String(v)
		case "provider":
			msg.Provider, _ = jscan.String(v)
		case "usage":
			msg.Usage = usageOf(v)
		case "stopReason":
			msg.StopReason, _ = jscan.String(v)
		case "errorMessage":
			msg.Error, _ = jscan.String(v)
		case "isError":
			msg.IsError = string(v) == "true"
		}
		return true
	})
	if content && m.Content < 0 {
		k := -int(m.Content)
		for c := s.firstCall[m.Entry]; c >= 0 && k > 0; c, k = s.nextCall[c], k-1 {
			msg.Blocks = append(msg.Blocks, s.callBlock(int(c)))
		}
	}
	return msg
}

// callBlock is a tool_call entry as a message's tool call block.
func (s *Session) callBlock(i int) model.Block {
	e := &s.Entries[i]
	input := jscan.Member(e.Raw, "input")
	if len(input) == 0 || input[0] != '{' {
		input = []byte("{}")
	}
	return model.Block{Type: model.BlockToolCall, Name: "tool_call",
		Call: model.ToolCall{ID: e.ID, Name: e.ToolName, Input: append([]byte(nil), input...)}}
}

// blocksOf reads a content value: a string is one text block.
func blocksOf(content []byte) []model.Block {
	if s, ok := jscan.String(content); ok {
		return []model.Block{{Type: model.BlockText, Name: "text", Text: s}}
	}
	var out []model.Block
	_ = jscan.Elements(content, func(b []byte) bool {
		var blk model.Block
		var data []byte
		jscan.Fields(b, func(k, v []byte) bool {
			switch jscan.Key(k) {
			case "type":
				blk.Name, _ = jscan.String(v)
			case "text":
				if blk.Name != "thinking" || blk.Text == "" {
					blk.Text, _ = jscan.String(v)
				}
			case "thinking":
				blk.Text, _ = jscan.String(v)
			case "mimeType":
				blk.MimeType, _ = jscan.String(v)
			case "data":
				data = v
			}
			return true
		})
		switch blk.Name {
		case "text":
			blk.Type = model.BlockText
		case "thinking":
			blk.Type = model.BlockThinking
			blk.Text, _ = jscan.String(jscan.Member(b, "thinking"))
		case "image":
			blk.Type = model.BlockImage
			blk.Text = ""
			if len(data) >= 2 {
				blk.DataLen = len(data) - 2
				blk.Data, _ = jscan.String(data)
			}
		default:
			blk.Text = ""
		}
		out = append(out, blk)
		return true
	})
	return out
}

// usageOf reads a usage value in pi's shape (input, output, cacheRead,
// cacheWrite, cost.total), which is what skein writes for an LLM
// compaction.
func usageOf(u []byte) *model.Usage {
	us := &model.Usage{}
	if len(u) == 0 || u[0] != '{' {
		return us
	}
	jscan.Fields(u, func(k, v []byte) bool {
		f, _ := jscan.Number(v)
		switch jscan.Key(k) {
		case "input":
			us.Input = f
		case "output":
			us.Output = f
		case "cacheRead":
			us.CacheRead = f
		case "cacheWrite":
			us.CacheWrite = f
		case "totalTokens":
			us.Total = f
		case "cost":
			if c, ok := jscan.Number(jscan.Member(v, "total")); ok {
				us.Cost, us.HasCost = c, true
			} else if c, ok := jscan.Number(v); ok {
				us.Cost, us.HasCost = c, true
			}
		}
		return true
	})
	return us
}

// MessageTokens estimates a context message as pi does: a quarter of its
// text's UTF-16 length, rounded up.
func (s *Session) MessageTokens(m model.ContextMessage) int {
	msg := s.Message(m)
	return msg.EstimateTokens()
}

// ctxMsg is entry i's message as the history shows it.
func (s *Session) ctxMsg(i int) model.ContextMessage {
	m := model.ContextMessage{Entry: i}
	if s.Entries[i].Type == TypeCompaction {
		m.Kind = model.KindCompactionSummary
	}
	return m
}
