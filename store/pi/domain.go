package pi

import (
	"math"

	"skein/internal/jscan"
	"skein/model"
)

// A pi Session is a model.Source: these methods map pi's entries and
// messages into the domain's types.
var _ model.Source = (*Session)(nil)

// Domain is the session as the domain sees it.
func (s *Session) Domain(info model.SessionInfo) *model.Session {
	// A session opened without its list record is created when its header
	// says, as pi's list has it: the exports of an opened file said 1970.
	info = info.Fill("", func() string { return s.Header.ID }, func() string { return s.Header.Cwd }).CreatedFrom(s.Header.Timestamp)
	return model.NewSession(s, info)
}

// Of returns the pi session behind a domain session, or nil for another
// format's.
func Of(s *model.Session) *Session { return model.SourceOf[*Session](s) }

var kinds = map[string]model.EntryKind{
	TypeMessage:             model.EntryMessage,
	TypeModelChange:         model.EntryModelChange,
	TypeThinkingLevelChange: model.EntryThinkingLevel,
	TypeCompaction:          model.EntryCompaction,
	TypeBranchSummary:       model.EntryBranchSummary,
	TypeCustom:              model.EntryCustom,
	TypeCustomMessage:       model.EntryCustomMessage,
	TypeLabel:               model.EntryLabel,
	TypeSessionInfo:         model.EntryTitle,
	TypeUsage:               model.EntryUsage,
	TypeContextEdit:         model.EntryContextEdit,
}

// Entry is entry i in the domain's terms.
func (s *Session) Entry(i int) model.Entry {
	e := &s.Entries[i]
	return model.Entry{Kind: e.kind, Type: e.Type, Role: e.Role, ID: e.ID, ParentID: e.ParentID,
		Timestamp: e.Timestamp, Line: e.Line}
}

// Detail is what entry i says when it is not a message.
func (s *Session) Detail(i int) model.Detail {
	e := &s.Entries[i]
	var d model.Detail
	str := func(k string) string { v, _ := e.StringField(k); return v }
	switch e.Type {
	case TypeModelChange:
		d.Provider, d.Model = str("provider"), str("modelId")
	case TypeThinkingLevelChange:
		d.ThinkingLevel = str("thinkingLevel")
	case TypeLabel:
		d.Target, d.Label = str("targetId"), str("label")
	case TypeContextEdit:
		d.Target = str("targetId")
	case TypeSessionInfo:
		d.Title = TrimJS(str("name"))
	case TypeCustom, TypeCustomMessage:
		d.CustomType = str("customType")
	}
	return d
}

// Problems are the file's diagnostics.
func (s *Session) Problems() []model.Diagnostic { return s.Diagnostics }

// Raw is the entry's line as stored.
func (s *Session) Raw(i int) []byte { return s.Entries[i].Raw }

// NothingToCompact says why PlanCompaction(leaf, keep) made no plan.
func (s *Session) NothingToCompact(leaf int, keep float64) string {
	return NothingToCompact(s, leaf, keep)
}

// Message is a context message as the domain's Message: pi's message JSON
// (what the model is given) read into normalized blocks.
func (s *Session) Message(m model.ContextMessage) model.Message { return s.message(m, true) }

// MessageHead is Message without the content.
func (s *Session) MessageHead(m model.ContextMessage) model.Message { return s.message(m, false) }

func (s *Session) message(m model.ContextMessage, content bool) model.Message {
	if e := &s.Entries[m.Entry]; m.Kind == model.KindMessage && m.Content == 0 && e.Message != nil {
		// The message as stored: the same values its JSON for the model
		// holds, without writing that JSON (the migrated role is the entry's).
		return messageOf(e.Message, e.Role, content)
	}
	raw := s.MessageJSON(m)
	role := String(Member(raw, "role"))
	if m.Kind == model.KindMessage {
		role = s.Entries[m.Entry].Role // the migrated role
	}
	return messageOf(raw, role, content)
}

// messageOf reads a message's JSON, its content blocks when content is set.
func messageOf(raw []byte, role string, content bool) model.Message {
	msg := model.Message{Role: role}
	str := func(v []byte) string { return String(v) }
	isTrue := func(v []byte) bool { return string(v) == "true" }
	jscan.Fields(raw, func(k, v []byte) bool {
		switch {
		case jscan.KeyIs(k, "timestamp"):
			msg.Time, msg.HasTime = jsNumberValue(v)
			msg.HasTime = msg.HasTime && !math.IsInf(msg.Time, 0)
		case jscan.KeyIs(k, "content") && content:
			msg.Blocks = blocksOf(v)
		case jscan.KeyIs(k, "model"):
			msg.Model = str(v)
		case jscan.KeyIs(k, "provider"):
			msg.Provider = str(v)
		case jscan.KeyIs(k, "usage"):
			msg.Usage = usageOf(v)
		case jscan.KeyIs(k, "stopReason"):
			msg.StopReason = str(v)
		case jscan.KeyIs(k, "errorMessage"):
			msg.Error = str(v)
		case jscan.KeyIs(k, "toolCallId"):
			msg.ToolCallID = str(v)
		case jscan.KeyIs(k, "toolName"):
			msg.ToolName = str(v)
		case jscan.KeyIs(k, "isError"):
			msg.IsError = isTrue(v)
		case jscan.KeyIs(k, "command"):
			msg.Command = str(v)
		case jscan.KeyIs(k, "output"):
			msg.Output = str(v)
		case jscan.KeyIs(k, "exitCode"):
			msg.ExitCode = ""
			if string(v) != "null" {
				msg.ExitCode = string(v)
			}
		case jscan.KeyIs(k, "cancelled"):
			msg.Cancelled = isTrue(v)
		case jscan.KeyIs(k, "excludeFromContext"):
			msg.Excluded = isTrue(v)
		case jscan.KeyIs(k, "customType"):
			msg.CustomType = str(v)
		case jscan.KeyIs(k, "display"):
			msg.Hidden = string(v) == "false"
		case jscan.KeyIs(k, "summary"):
			msg.Summary = str(v)
		case jscan.KeyIs(k, "tokensBefore"):
			msg.TokensBefore, _ = jsNumberValue(v)
		case jscan.KeyIs(k, "sections"):
			msg.Sections = nil
			Fields(v, func(name string, val []byte) {
				msg.Sections = append(msg.Sections, model.Section{Name: name, Text: String(val), Removed: string(val) == "null"})
			})
		case jscan.KeyIs(k, "toolsAdded"):
			msg.ToolsAdded = toolNames(v)
		case jscan.KeyIs(k, "toolsRemoved"):
			msg.ToolsRemoved = toolNames(v)
		}
		return true
	})
	return msg
}

func toolNames(list []byte) []string {
	var out []string
	_ = jscan.Elements(list, func(t []byte) bool {
		out = append(out, String(Member(t, "name")))
		return true
	})
	return out
}

// usageOf reads a usage value; one that is there but not an object is
// none of anything (the transcript shows "0 in, 0 out", as it did).
func usageOf(u []byte) *model.Usage {
	if len(u) == 0 || u[0] != '{' {
		return &model.Usage{}
	}
	num := func(v []byte) float64 { f, _ := jsNumberValue(v); return f }
	us := &model.Usage{}
	var cost []byte
	jscan.Fields(u, func(k, v []byte) bool {
		switch {
		case jscan.KeyIs(k, "input"):
			us.Input = num(v)
		case jscan.KeyIs(k, "output"):
			us.Output = num(v)
		case jscan.KeyIs(k, "cacheRead"):
			us.CacheRead = num(v)
		case jscan.KeyIs(k, "cacheWrite"):
			us.CacheWrite = num(v)
		case jscan.KeyIs(k, "cost"):
			cost = v
		}
		return true
	})
	us.Cost, us.HasCost = jsNumberValue(Member(cost, "total"))
	return us
}

// blocksOf reads a content value: a string is one text block. Each block
// is walked once for the members its type needs (the last of each, as
// JSON.parse keeps).
func blocksOf(content []byte) []model.Block {
	if s, ok := bstr(content); ok {
		return []model.Block{{Type: model.BlockText, Name: "text", Text: s}}
	}
	var out []model.Block
	_ = jscan.Elements(content, func(b []byte) bool {
		var typ, text, thinking, mime, data []byte
		jscan.Fields(b, func(k, v []byte) bool {
			switch {
			case jscan.KeyIs(k, "type"):
				typ = v
			case jscan.KeyIs(k, "text"):
				text = v
			case jscan.KeyIs(k, "thinking"):
				thinking = v
			case jscan.KeyIs(k, "mimeType"):
				mime = v
			case jscan.KeyIs(k, "data"):
				data = v
			}
			return true
		})
		t := String(typ)
		blk := model.Block{Name: t}
		switch {
		case t == "text":
			blk.Type, blk.Text = model.BlockText, String(text)
		case t == "thinking":
			blk.Type, blk.Text = model.BlockThinking, String(thinking)
		case t == "image":
			blk.Type, blk.MimeType = model.BlockImage, String(mime)
			if len(data) >= 2 {
				blk.DataLen = len(data) - 2
				blk.Data = String(data)
			}
		case t == "toolCall" || t == "tool_use" || t == "tool_call" || t == "function_call":
			blk.Type, blk.Call = model.BlockToolCall, NormalizeToolCall(b)
		}
		out = append(out, blk)
		return true
	})
	return out
}
