package claude

import (
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/internal/llmwire"
	"skein/model"
)

// commandText is a slash command's line as the user typed it, read from
// the tags Claude Code stores it in (<command-name>/init</command-name>
// <command-args>...</command-args>); "" when text is not one.
func commandText(text string) string {
	if !strings.HasPrefix(strings.TrimSpace(text), "<command-") {
		return ""
	}
	name, ok := llmwire.Between(text, "<command-name>", "</command-name>")
	if !ok {
		return ""
	}
	if args, ok := llmwire.Between(text, "<command-args>", "</command-args>"); ok && strings.TrimSpace(args) != "" {
		return strings.TrimSpace(name) + " " + strings.TrimSpace(args)
	}
	return strings.TrimSpace(name)
}

// TreeText is entry i's line in the tree: a message's first text (a slash
// command as typed; a reply's tool calls when it has no text), a result's
// first line, a compaction's trigger and size, a title, a record's type.
// A sub-agent's first entry names the agent.
func (s *Session) TreeText(i int, home string) []model.Part {
	e := &s.Entries[i]
	var parts []model.Part
	if a := e.Agent; a >= 0 && s.parent[i] == int32(s.Agents[a].Call) && s.Agents[a].Call >= 0 {
		name := "agent"
		if id := s.Agents[a].ID; id != "" {
			name += " " + model.OneLine(id)
		}
		parts = append(parts, model.Part{Text: "[" + name + "] ", Role: "label"})
	}
	switch e.kind {
	case model.EntryMessage:
		msg := s.Message(model.ContextMessage{Entry: i})
		switch e.role {
		case model.RoleToolResult:
			return append(parts, model.ResultPart(&msg))
		case model.RoleUser:
			parts = append(parts, model.Part{Text: "user: ", Role: "user"})
			text := msg.Text(" ")
			if c := commandText(text); c != "" {
				return append(parts, model.Part{Text: model.OneLine(c)})
			}
			if e.meta {
				parts = append(parts, model.Part{Text: "(meta) ", Role: "dim"})
			}
			if t := model.OneLine(text); t != "" {
				return append(parts, model.Part{Text: t})
			}
			return append(parts, model.Part{Text: "(no text)", Role: "muted"})
		}
		parts = append(parts, model.Part{Text: "assistant: ", Role: "assistant"})
		var hasText, hasCalls bool
		parts, hasText, hasCalls = model.ReplyParts(parts, &msg, home)
		switch {
		case hasCalls:
		case msg.Error != "":
			parts = append(parts, model.Part{Text: model.OneLine(msg.Error), Role: "error"})
		case !hasText:
			parts = append(parts, model.Part{Text: "(no text)", Role: "muted"})
		}
		return parts
	case model.EntryCompaction:
		msg := s.Message(model.ContextMessage{Entry: i, Kind: model.KindCompactionSummary})
		text := "[compaction"
		if trig, ok := jscan.String(jscan.Member(jscan.Member(s.lines[e.first].raw, "compactMetadata"), "trigger")); ok && trig != "" {
			text += ": " + model.OneLine(trig)
		}
		if msg.TokensBefore > 0 {
			text += ", " + jsjson.FormatNumber(float64(int64(msg.TokensBefore/1000+0.5))) + "k tokens"
		}
		return append(parts, model.Part{Text: text + "]", Role: "compaction"})
	case model.EntryTitle:
		return append(parts, model.Part{Text: "[" + model.OneLine(e.Type) + ": " + model.OneLine(s.titleOf(i)) + "]", Role: "dim"})
	case model.EntryCustom:
		text := "[" + model.OneLine(s.Detail(i).CustomType) + "]"
		if t, ok := jscan.String(jscan.Member(s.lines[e.first].raw, "content")); ok && strings.TrimSpace(t) != "" {
			text += " " + model.OneLine(t)
		}
		return append(parts, model.Part{Text: text, Role: "dim"})
	}
	return append(parts, model.Part{Text: "[a line with no type]", Role: "dim"})
}
