package pi

import (
	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
)

// CurrentSystemMessage is pi-ai's getCurrentSystemMessage over a context's
// messages: every system message replayed into one, its content the
// non-empty contents joined by blank lines, its sections patched by name (a
// null removes one), its tools resolved (toolsRemoved, then toolsAdded, by
// name), stamped with the first system message's timestamp. nil where pi
// returns undefined: no timestamp and no tools.
func (s *Session) CurrentSystemMessage(msgs []model.ContextMessage) []byte {
	var content []string
	var sections, tools jsjson.Members
	var timestamp []byte // nil while undefined
	for _, m := range msgs {
		if s.messageRole(m) != RoleSystem {
			continue
		}
		raw := s.rawMessage(m)
		if timestamp == nil || string(timestamp) == "null" {
			timestamp = Member(raw, "timestamp")
		}
		if text := ContentText(Member(raw, "content"), "\n"); text != "" {
			content = append(content, text)
		}
		jsjson.ObjectEntries(Member(raw, "sections"), func(name string, val []byte) {
			if string(val) == "null" {
				sections.Delete(name)
			} else {
				sections.Set(name, val)
			}
		})
		_ = jscan.Elements(Member(raw, "toolsRemoved"), func(tool []byte) bool {
			tools.Delete(toolName(tool))
			return true
		})
		_ = jscan.Elements(Member(raw, "toolsAdded"), func(tool []byte) bool {
			tools.Set(toolName(tool), tool)
			return true
		})
	}
	if timestamp == nil && len(tools.Names) == 0 {
		return nil
	}
	out := []byte(`{"role":"system","content":`)
	joined := ""
	for i, c := range content {
		if i > 0 {
			joined += "\n\n"
		}
		joined += c
	}
	out = jsjson.AppendString(out, joined)
	if len(sections.Names) > 0 {
		out = append(out, `,"sections":{`...)
		for i, name := range jsjson.KeyOrder(sections.Names) {
			if i > 0 {
				out = append(out, ',')
			}
			out = jsjson.AppendKey(out, name)
			out = jsjson.AppendValue(out, sections.Vals[name])
		}
		out = append(out, '}')
	}
	if len(tools.Names) > 0 {
		out = append(out, `,"toolsAdded":[`...)
		for i, name := range tools.Names {
			if i > 0 {
				out = append(out, ',')
			}
			out = jsjson.AppendValue(out, tools.Vals[name])
		}
		out = append(out, ']')
	}
	out = append(out, `,"timestamp":`...)
	if timestamp == nil || string(timestamp) == "null" {
		out = append(out, '0')
	} else {
		out = jsjson.AppendValue(out, timestamp)
	}
	return append(out, '}')
}

// toolName is the key a tool has in pi's tool map: its name.
func toolName(tool []byte) string {
	name := Member(tool, "name")
	if s, ok := bstr(name); ok {
		return "s" + s
	}
	return "r" + string(name) // not a string: keyed by its JSON, never equal to a string's
}

// rawMessage is a context message's JSON, without a copy where it is the
// message as stored.
func (s *Session) rawMessage(m model.ContextMessage) []byte {
	if e := &s.Entries[m.Entry]; m.Kind == model.KindMessage && m.Content == 0 && !e.RenamedRole && e.Message != nil {
		return e.Message
	}
	return s.MessageJSON(m)
}

// StampSystemMessage is a system message with its timestamp set to ms, as
// pi 1.6.0's appendCompaction stamps the checkpoint it stores with the
// compaction's own time.
func StampSystemMessage(sys []byte, ms float64) []byte {
	return appendReplacingMembers(nil, sys, []member{{"timestamp", []byte(jsjson.FormatNumber(ms))}})
}
