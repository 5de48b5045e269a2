package dhara

import (
	"io"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
)

// TreeText is entry i's line in the tree: a message's first text, a call's
// tool and key argument, a result's first line, and a mark for each branch
// that ends at the entry (so that a fork with no entries of its own shows).
func (s *Session) TreeText(i int, home string) []model.Part {
	e := &s.Entries[i]
	var parts []model.Part
	switch e.Type {
	case TypeMessage:
		msg := s.Message(model.ContextMessage{Entry: i})
		text := model.OneLine(msg.Text(" "))
		switch e.Role {
		case model.RoleUser, model.RoleAssistant:
			parts = append(parts, model.Part{Text: e.Role + ": ", Role: e.Role})
		default:
			parts = append(parts, model.Part{Text: "[" + e.Role + "]: ", Role: "dim"})
		}
		if text == "" {
			parts = append(parts, model.Part{Text: "(no text)", Role: "muted"})
		} else {
			parts = append(parts, model.Part{Text: text})
		}
	case TypeToolCall:
		parts = append(parts, model.Part{Text: model.CallText(s.callBlock(i).Call, home), Role: "muted"})
	case TypeToolResult:
		msg := s.Message(model.ContextMessage{Entry: i})
		parts = append(parts, model.ResultPart(&msg))
	case TypeSystem:
		parts = append(parts, model.Part{Text: "[system]", Role: "dim"})
	case TypeCompaction:
		ids := len(stringList(jscan.Member(e.Raw, "entryIds")))
		sum, _ := jscan.String(jscan.Member(e.Raw, "summary"))
		parts = append(parts, model.Part{Text: "[compaction of " + jsjson.FormatNumber(float64(ids)) + " entries]: ", Role: "compaction"},
			model.Part{Text: model.OneLine(sum)})
	case TypeModelChange:
		parts = append(parts, model.Part{Text: "[model: " + s.Detail(i).Model + "]", Role: "dim"})
	case TypeLabel:
		l := s.Detail(i).Label
		if l == "" {
			l = "(cleared)"
		}
		parts = append(parts, model.Part{Text: "[label: " + l + "]", Role: "dim"})
	case TypeCustom:
		parts = append(parts, model.Part{Text: "[custom: " + s.Detail(i).CustomType + "]", Role: "dim"})
	default:
		parts = append(parts, model.Part{Text: "[" + e.Type + "]", Role: "dim"})
	}
	for _, b := range s.tips[i] {
		parts = append(parts, model.Part{Text: "  ⎇ " + b, Role: "label"})
	}
	return parts
}

// WriteTreeJSON writes the tree as an array of root nodes {id, type, role,
// label, branches, children}: branches names those that end at the entry.
func (s *Session) WriteTreeJSON(w io.Writer) error {
	return model.WriteTree(w, s.Roots(), s.Children, func(buf []byte, i int) []byte {
		e := &s.Entries[i]
		l, ok := s.labels[i]
		buf = model.AppendTreeNode(buf, e.ID, e.ID != "", e.Type, e.Role, e.Role != "", l, ok)
		buf = append(buf, `,"branches":[`...)
		for k, b := range s.tips[i] {
			if k > 0 {
				buf = append(buf, ',')
			}
			buf = jsjson.AppendString(buf, b)
		}
		return append(buf, ']')
	})
}
