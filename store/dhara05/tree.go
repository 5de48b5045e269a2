package dhara05

import (
	"skein/model"
)

// TreeText is entry i's line in the tree: a message's first text (an
// assistant's tool calls when it has none), a result's first line, a
// branch marker with its reason (RowParts shows its label).
func (s *Session) TreeText(i int, home string) []model.Part {
	e := &s.Entries[i]
	var parts []model.Part
	switch {
	case e.role == model.RoleUser || e.role == model.RoleAssistant:
		msg := s.Message(model.ContextMessage{Entry: i})
		parts = append(parts, model.Part{Text: e.role + ": ", Role: e.role})
		var hasText, hasCalls bool
		parts, hasText, hasCalls = model.ReplyParts(parts, &msg, home)
		if !hasText && !hasCalls {
			parts = append(parts, model.Part{Text: "(no text)", Role: "muted"})
		}
	case e.role == model.RoleToolResult:
		msg := s.Message(model.ContextMessage{Entry: i})
		parts = append(parts, model.ResultPart(&msg))
	case e.role == model.RoleSystem:
		msg := s.Message(model.ContextMessage{Entry: i})
		parts = append(parts, model.Part{Text: "[system]: ", Role: "dim"}, model.Part{Text: model.OneLine(msg.Text(" "))})
	case e.Type == TypeBranch:
		text := "⎇ branch"
		if e.Reason != "" {
			text += " (" + model.OneLine(e.Reason) + ")"
		}
		parts = append(parts, model.Part{Text: text, Role: "label"})
	case e.Type == TypeEntry:
		parts = append(parts, model.Part{Text: "[entry: role " + model.OneLine(e.Role) + "]", Role: "dim"})
	default:
		parts = append(parts, model.Part{Text: "[" + model.OneLine(e.Type) + "]", Role: "dim"})
	}
	return parts
}
