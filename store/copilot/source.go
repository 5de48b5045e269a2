package copilot

import (
	"strconv"

	"skein/internal/jscan"
	"skein/model"
)

// A Copilot Session is a model.Source.
var _ model.Source = (*Session)(nil)

// Domain is the session as the domain sees it.
func (s *Session) Domain(info model.SessionInfo) *model.Session {
	return model.NewSession(s, info.Fill(Format, s.sessionID, s.cwd))
}

// Of returns the Copilot session behind a domain session, or nil.
func Of(s *model.Session) *Session { return model.SourceOf[*Session](s) }

func (s *Session) Len() int { return len(s.Events) }

// Leaf is where Copilot resumes: the last event, -1 for none.
func (s *Session) Leaf() int { return len(s.Events) - 1 }

// Parent is the event's parent (parentId), -1 for the first.
func (s *Session) Parent(i int) int { return s.parent[i] }

// Index finds an event by its id.
func (s *Session) Index(id string) (int, bool) {
	i, ok := s.index[id]
	return i, ok
}

// Entry is event i in the domain's terms; Type is the event's type.
func (s *Session) Entry(i int) model.Entry {
	e := &s.Events[i]
	pid := ""
	if p := s.parent[i]; p >= 0 {
		pid = s.Events[p].key
	}
	return model.Entry{Kind: e.kind, Type: e.Type, Role: e.role, ID: e.key, ParentID: pid, Timestamp: e.Timestamp, Line: e.Line}
}

// Raw is the event's line as stored.
func (s *Session) Raw(i int) []byte { return s.Events[i].Raw }

// Problems are what reading found.
func (s *Session) Problems() []model.Diagnostic { return s.Diagnostics }

// ReadOnly: Copilot appends to events.jsonl while it runs, with no lock
// skein could share.
func (s *Session) ReadOnly() string {
	return "Copilot CLI writes this session; skein only reads it (import it to work on a copy)"
}

// Detail is a model change's model and effort, or a title.
func (s *Session) Detail(i int) model.Detail {
	e := &s.Events[i]
	switch e.kind {
	case model.EntryModelChange:
		return model.Detail{Model: str(e.Data, "newModel"), ThinkingLevel: str(e.Data, "reasoningEffort")}
	case model.EntryTitle:
		return model.Detail{Title: str(e.Data, "title")}
	}
	return model.Detail{}
}

// Name is the last title_changed event's title, else the workspace's name
// when the user gave it (Copilot names every session after its first
// prompt otherwise, which the list shows as the first message).
func (s *Session) Name() string {
	for i := len(s.Events) - 1; i >= 0; i-- {
		if s.Events[i].Type == TypeTitleChanged && s.Events[i].AgentID == "" {
			return str(s.Events[i].Data, "title")
		}
	}
	if s.Workspace.UserNamed {
		return s.Workspace.Name
	}
	return ""
}

// Message is a context message's content, normalized.
func (s *Session) Message(m model.ContextMessage) model.Message { return s.message(m, true) }

// MessageHead is Message without its content blocks.
func (s *Session) MessageHead(m model.ContextMessage) model.Message { return s.message(m, false) }

func (s *Session) message(m model.ContextMessage, content bool) model.Message {
	if m.Entry < 0 || m.Entry >= len(s.Events) {
		return model.Message{}
	}
	e := &s.Events[m.Entry]
	var msg model.Message
	msg.SetTime(e.Timestamp)
	d := e.Data
	switch {
	case e.kind == model.EntryCompaction:
		msg.Role = model.RoleCompactionSummary
		msg.Summary = str(d, "summaryContent")
		msg.TokensBefore, _ = num(d, "preCompactionTokens")
	case e.Type == TypeUser:
		msg.Role = model.RoleUser
		// A sub-agent's prompt is its parent's words, not the user's.
		msg.Injected = e.AgentID != ""
		if content {
			msg.Blocks = textBlocks(str(d, "content"))
		}
	case e.Type == TypeSystem:
		msg.Role, msg.Hidden = model.RoleSystem, true
		if content {
			msg.Blocks = textBlocks(str(d, "content"))
		}
	case e.Type == TypeAssistant:
		msg.Role = model.RoleAssistant
		msg.Model = str(d, "model")
		if u, ok := s.usage[str(d, "apiCallId")]; ok {
			t := usageOf(jscan.Member(s.Events[u].Data, "usage"))
			msg.Usage = t.message()
		}
		if content {
			msg.Blocks = assistantBlocks(d)
		}
	case e.Type == TypeError:
		msg.Role, msg.StopReason = model.RoleAssistant, "error"
		msg.Error = str(d, "message")
		if t := str(d, "errorType"); t != "" {
			msg.Error = t + ": " + msg.Error
		}
	case e.Type == TypeToolComplete:
		msg.Role = model.RoleToolResult
		msg.ToolCallID = str(d, "toolCallId")
		msg.ToolName = s.toolName(msg.ToolCallID)
		msg.IsError = failed(d)
		if code, ok := num(jscan.Member(d, "shellExecution"), "exitCode"); ok {
			msg.ExitCode = strconv.FormatFloat(code, 'f', -1, 64)
		}
		if content {
			msg.Blocks = textBlocks(resultText(d))
		}
	default:
		msg.Role, msg.CustomType, msg.Hidden = model.RoleCustom, e.Type, true
		if content {
			msg.Blocks = []model.Block{{Type: model.BlockOther, Name: e.Type, Text: string(e.Raw)}}
		}
	}
	return msg
}

// failed reports whether a tool's execution failed as Copilot shows it: an
// execution that did not succeed, or a shell command that exited non-zero
// (which Copilot records as a success and shows with ✗).
func failed(d []byte) bool {
	if ok, _ := boolOf(jscan.Member(d, "success")); !ok {
		return true
	}
	code, ok := num(jscan.Member(d, "shellExecution"), "exitCode")
	return ok && code != 0
}

// resultText is what a tool's completion says: the text the model got
// (result.content), else the error's message.
func resultText(d []byte) string {
	if r := jscan.Member(d, "result"); len(r) > 0 && r[0] == '{' {
		if c, ok := jscan.String(jscan.Member(r, "content")); ok {
			return c
		}
	}
	return str(jscan.Member(d, "error"), "message")
}

// toolName is the name of the tool call id, from the assistant message
// that asked for it.
func (s *Session) toolName(id string) string {
	i, ok := s.calls[id]
	if !ok {
		return ""
	}
	name := ""
	jscan.Items(jscan.Member(s.Events[i].Data, "toolRequests"), func(v []byte) bool {
		if str(v, "toolCallId") == id {
			name = str(v, "name")
			return false
		}
		return true
	})
	return name
}

func textBlocks(t string) []model.Block {
	if t == "" {
		return nil
	}
	return []model.Block{{Type: model.BlockText, Text: t}}
}

// assistantBlocks are an assistant message's reasoning (reasoningText) as
// thinking, its content as text, and its tool requests as calls, whose
// input is the arguments object (anything else as {"arguments": it}).
func assistantBlocks(d []byte) []model.Block {
	var out []model.Block
	if r := str(d, "reasoningText"); r != "" {
		out = append(out, model.Block{Type: model.BlockThinking, Text: r})
	}
	out = append(out, textBlocks(str(d, "content"))...)
	jscan.Items(jscan.Member(d, "toolRequests"), func(v []byte) bool {
		call := model.ToolCall{ID: str(v, "toolCallId"), Name: str(v, "name")}
		args := jscan.Member(v, "arguments")
		switch {
		case len(args) > 0 && args[0] == '{':
			call.Input = append([]byte(nil), args...)
		case len(args) > 0:
			call.Input = append(append([]byte(`{"arguments":`), args...), '}')
		default:
			call.Input = []byte("{}")
		}
		out = append(out, model.Block{Type: model.BlockToolCall, Call: call})
		return true
	})
	return out
}
