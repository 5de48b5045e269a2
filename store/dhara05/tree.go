package dhara05

import (
	"io"

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

// WriteTreeJSON writes the tree as an array of root nodes {id, type, role,
// label, children}: type as written ("entry", "branch"), role the model's
// (null when not a message), label a branch marker's.
func (s *Session) WriteTreeJSON(w io.Writer) error {
	return model.WriteTree(w, s.Roots(), s.Children, func(buf []byte, i int) []byte {
		e := &s.Entries[i]
		l, ok := s.Label(i)
		return model.AppendTreeNode(buf, e.ID, true, e.Type, e.role, e.role != "", l, ok)
	})
}
