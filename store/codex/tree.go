package codex

import (
	"io"
	"strconv"
	"strings"

	"skein/internal/jscan"
	"skein/model"
)

// TreeText is entry i's line in the tree: a message's first text (an
// assistant's tool calls when it has none, or its reasoning), a result's
// first line, a compaction's summary, a turn context's model, a token
// count's total; any other line as its type.
func (s *Session) TreeText(i int, home string) []model.Part {
	e := &s.Entries[i]
	switch e.kind {
	case model.EntryMessage:
		msg := s.Message(model.ContextMessage{Entry: i})
		switch e.role {
		case model.RoleUser, model.RoleAssistant:
			head := []model.Part{{Text: e.role + ": ", Role: e.role}}
			if msg.Injected {
				// The AGENTS.md instructions, the environment: Codex's.
				head = append(head, model.Part{Text: "(context) ", Role: "dim"})
			}
			parts, hasText, hasCalls := model.ReplyParts(head, &msg, home)
			if !hasText && !hasCalls {
				var thinking []string
				encrypted := false
				for _, b := range msg.Blocks {
					switch {
					case b.Type == model.BlockThinking:
						thinking = append(thinking, b.Text)
					case b.Name == "encrypted_content":
						encrypted = true
					}
				}
				switch {
				case msg.Error != "":
					parts = append(parts, model.Part{Text: "error: " + model.OneLine(msg.Error), Role: "error"})
				case len(thinking) > 0:
					parts = append(parts, model.Part{Text: "(thinking) " + model.OneLine(strings.Join(thinking, " ")), Role: "muted"})
				case encrypted:
					parts = append(parts, model.Part{Text: "(" + e.ItemType + ", encrypted)", Role: "muted"})
				default:
					parts = append(parts, model.Part{Text: "(no text)", Role: "muted"})
				}
			}
			return parts
		case model.RoleToolResult:
			return []model.Part{model.ResultPart(&msg)}
		default:
			return []model.Part{{Text: "[" + model.OneLine(e.Role) + "]: ", Role: "dim"}, {Text: model.OneLine(msg.Text(" "))}}
		}
	case model.EntryCompaction:
		return []model.Part{{Text: "[compaction: " + model.OneLine(s.summaryOf(i)) + "]", Role: "compaction"}}
	case model.EntryModelChange:
		return model.Mark("model: " + s.tcModel[int32(i)])
	case model.EntryTitle:
		return []model.Part{{Text: "[title: " + model.OneLine(s.Detail(i).Title) + "]", Role: "label"}}
	case model.EntryUsage:
		if c, ok := s.countAt(i); ok && c.total.total > 0 {
			return model.Mark("tokens: " + strconv.FormatFloat(c.total.total, 'f', -1, 64) + " total")
		}
		return model.Mark(e.typ)
	}
	switch {
	case e.Type == TypeSessionMeta:
		id, _ := jscan.String(jscan.ObjectMember(e.Payload, "id"))
		return model.Mark("session " + id)
	case e.typ == "":
		return model.Mark("line")
	}
	return model.Mark(e.typ)
}

// WriteTreeJSON writes the tree as an array of root nodes {id, type, role,
// label, children}: id the entry's ("L12"), type the domain's (Entry),
// role the model's (null when not a message), label null.
func (s *Session) WriteTreeJSON(w io.Writer) error {
	return model.WriteTree(w, s.Roots(), s.Children, func(buf []byte, i int) []byte {
		e := &s.Entries[i]
		return model.AppendTreeNode(buf, "L"+strconv.Itoa(e.Line), true, e.typ, e.role, e.role != "", "", false)
	})
}
