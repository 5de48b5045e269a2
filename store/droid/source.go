package droid

import (
	"io"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
)

// A Droid Session is a model.Source.
var _ model.Source = (*Session)(nil)

// Domain is the session as the domain sees it.
func (s *Session) Domain(info model.SessionInfo) *model.Session {
	return model.NewSession(s, info.Fill(Format, func() string { return s.ID }, func() string { return s.Cwd }))
}

// Of returns the Droid session behind a domain session, or nil.
func Of(s *model.Session) *Session { return model.SourceOf[*Session](s) }

func (s *Session) Len() int                     { return len(s.Entries) }
func (s *Session) Leaf() int                    { return s.leaf }
func (s *Session) Raw(i int) []byte             { return s.Entries[i].Raw }
func (s *Session) Name() string                 { return s.Title }
func (s *Session) Problems() []model.Diagnostic { return s.Diagnostics }

// Entry is the entry in the domain's terms; Type is the record's type.
func (s *Session) Entry(i int) model.Entry {
	e := &s.Entries[i]
	me := model.Entry{Kind: e.kind, Type: e.Type, Role: e.role, ID: s.idOf(i), Timestamp: e.Timestamp, Line: e.Line}
	if p := s.Parent(i); p >= 0 {
		me.ParentID = s.idOf(p)
	}
	return me
}

// idOf is entry i's id: a message's id when it is the first with it, else
// its line ("L<n>"), so that every entry has one of its own.
func (s *Session) idOf(i int) string {
	e := &s.Entries[i]
	if e.ID != "" && (e.Type != TypeMessage || s.byID[e.ID] == i) {
		return e.ID
	}
	return "L" + itoa(e.Line)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	k := len(b)
	for neg := n < 0; n != 0; n /= 10 {
		d := n % 10
		if neg {
			d = -d
		}
		k--
		b[k] = byte('0' + d)
		if n/10 == 0 && neg {
			k--
			b[k] = '-'
		}
	}
	return string(b[k:])
}

// Index is the entry whose id is id.
func (s *Session) Index(id string) (int, bool) {
	if i, ok := s.byID[id]; ok {
		return i, true
	}
	for i := range s.Entries {
		if s.idOf(i) == id {
			return i, true
		}
	}
	return -1, false
}

// Detail says nothing more of Droid's entries.
func (s *Session) Detail(int) model.Detail { return model.Detail{} }

// Message is a context message's content, normalized: a user's text and
// images, an assistant's text, thinking and tool calls, a tool result
// (the record's k-th tool_result for a message whose Content is -(k+1)),
// and a message Droid shows but never sends (visibility user_only: the
// API errors it reports) as an assistant's error.
func (s *Session) Message(m model.ContextMessage) model.Message {
	if m.Entry < 0 || m.Entry >= len(s.Entries) || s.Entries[m.Entry].kind != model.EntryMessage {
		return model.Message{}
	}
	e := &s.Entries[m.Entry]
	msg := model.Message{Role: e.role}
	if t := jsdate.Parse(e.Timestamp); t == t {
		msg.Time, msg.HasTime = t, true
	}
	switch {
	case e.Visibility == "user_only":
		msg.Error = textOf(e.Content)
		if msg.Error == "" {
			msg.Error = "error"
		}
		msg.StopReason = "error"
		msg.Excluded = true
		return msg
	case e.role == model.RoleToolResult:
		return s.toolResult(e, m, msg)
	}
	msg.Blocks = blocks(e.Content)
	if e.role == model.RoleAssistant {
		msg.Model = s.Model
	}
	return msg
}

// blocks are a content array's blocks (a string content is one text).
func blocks(content []byte) []model.Block {
	if len(content) > 0 && content[0] == '"' {
		t, _ := jscan.String(content)
		return []model.Block{{Type: model.BlockText, Text: t}}
	}
	var out []model.Block
	jscan.Items(content, func(b []byte) bool {
		switch jscan.StringMember(b, "type") {
		case "text":
			out = append(out, model.Block{Type: model.BlockText, Text: jscan.StringMember(b, "text")})
		case "thinking":
			out = append(out, model.Block{Type: model.BlockThinking, Name: "thinking", Text: jscan.StringMember(b, "thinking")})
		case "redacted_thinking":
			out = append(out, model.Block{Type: model.BlockThinking, Name: "redacted_thinking"})
		case "tool_use":
			in := jscan.ObjectMember(b, "input")
			if len(in) == 0 || in[0] != '{' {
				in = []byte("{}")
			}
			out = append(out, model.Block{Type: model.BlockToolCall, Name: "tool_use", Call: model.ToolCall{ID: jscan.StringMember(b, "id"), Name: jscan.StringMember(b, "name"), Input: in}})
		case "image":
			src := jscan.ObjectMember(b, "source")
			data := jscan.StringMember(src, "data")
			out = append(out, model.Block{Type: model.BlockImage, Name: "image", MimeType: jscan.StringMember(src, "media_type"), DataLen: len(data), Data: data})
		}
		return true
	})
	return out
}

// textOf is the texts of a content, joined by newlines.
func textOf(content []byte) string {
	out := ""
	for _, b := range blocks(content) {
		if b.Type == model.BlockText {
			if out != "" {
				out += "\n"
			}
			out += b.Text
		}
	}
	return out
}

// toolResult is a record's k-th tool_result (k from the message's
// Content: 0 for the first): its call's id and name, its content's text,
// is_error.
func (s *Session) toolResult(e *Entry, m model.ContextMessage, msg model.Message) model.Message {
	k := 0
	if m.Content < 0 {
		k = int(-m.Content) - 1
	}
	n := 0
	jscan.Items(e.Content, func(b []byte) bool {
		if jscan.StringMember(b, "type") != "tool_result" {
			return true
		}
		if n < k {
			n++
			return true
		}
		msg.ToolCallID = jscan.StringMember(b, "tool_use_id")
		msg.ToolName = s.calls[msg.ToolCallID]
		msg.IsError = string(jscan.ObjectMember(b, "is_error")) == "true"
		msg.Blocks = blocks(jscan.ObjectMember(b, "content"))
		n++
		return false
	})
	return msg
}

// results is how many tool_result blocks a record holds.
func results(content []byte) int {
	n := 0
	jscan.Items(content, func(b []byte) bool {
		if jscan.StringMember(b, "type") == "tool_result" {
			n++
		}
		return true
	})
	return n
}

// TreeText is entry i's line in the tree.
func (s *Session) TreeText(i int, home string) []model.Part {
	e := &s.Entries[i]
	switch e.Type {
	case TypeMessage:
		msg := s.Message(model.ContextMessage{Entry: i})
		return model.MessageParts(&msg, e.role, home)
	case TypeSessionStart:
		return model.Mark("session: " + jscan.StringMember(e.Raw, "title"))
	case TypeTurnOutcome:
		return model.Mark("turn " + jscan.StringMember(e.Raw, "reason"))
	}
	return model.Mark(e.Type)
}

// TreeHidden marks the records the tree leaves out: the turn outcomes
// Droid writes after each turn, which say nothing a message does not.
func (s *Session) TreeHidden() []bool {
	out := make([]bool, len(s.Entries))
	for i := range s.Entries {
		out[i] = s.Entries[i].Type == TypeTurnOutcome
	}
	return out
}

// WriteTreeJSON writes the tree as an array of root nodes {id, type, role,
// label, children}.
func (s *Session) WriteTreeJSON(w io.Writer) error {
	return model.WriteTree(w, s.Roots(), s.Children, func(buf []byte, i int) []byte {
		e := &s.Entries[i]
		return model.AppendTreeNode(buf, s.idOf(i), true, e.Type, e.role, e.role != "", "", false)
	})
}
