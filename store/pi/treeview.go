package pi

import (
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/internal/utf8js"
	"skein/model"
)

type toolCallInfo struct {
	name string
	args []byte
}

func hasTextContent(content []byte) bool {
	if jscan.IsString(content) {
		return nonBlank(content)
	}
	found := false
	_ = jscan.Elements(content, func(b []byte) bool {
		if String(Member(b, "type")) == "text" && nonBlank(Member(b, "text")) {
			found = true
			return false
		}
		return true
	})
	return found
}

// nonBlank reports whether the raw JSON string raw holds more than
// JavaScript's whitespace (String.prototype.trim's), reading its bytes
// up to the first that is not a space, and decoding it only when that
// byte may be one of Unicode's spaces or an escape other than \n \t \r \f.
func nonBlank(raw []byte) bool {
	if !jscan.IsString(raw) {
		return false
	}
	body := raw[1 : len(raw)-1]
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == '\\' && i+1 < len(body) && (body[i+1] == 'n' || body[i+1] == 't' || body[i+1] == 'r' || body[i+1] == 'f'):
			i++
		case c == '\\' || c >= 0x80:
			s, _ := bstr(raw)
			return TrimJS(s) != ""
		default:
			return true
		}
	}
	return false
}

// TreeText is pi's getEntryDisplayText.
func (s *Session) TreeText(n int, home string) []model.Part {
	s.treeFacts()
	e := &s.Entries[n]
	norm := func(s string) string {
		return TrimJS(strings.NewReplacer("\n", " ", "\t", " ").Replace(s))
	}
	switch e.Type {
	case TypeMessage:
		switch e.Role {
		case RoleUser:
			return []model.Part{{Text: "user: ", Role: "user"}, {Text: norm(extractContent(e.MessageField("content"))), Role: ""}}
		case RoleAssistant:
			text := norm(extractContent(e.MessageField("content")))
			switch {
			case text != "":
				return []model.Part{{Text: "assistant: ", Role: "assistant"}, {Text: text, Role: ""}}
			case String(e.MessageField("stopReason")) == "aborted":
				return []model.Part{{Text: "assistant: ", Role: "assistant"}, {Text: "(aborted)", Role: "muted"}}
			case String(e.MessageField("errorMessage")) != "":
				return []model.Part{{Text: "assistant: ", Role: "assistant"}, {Text: utf8js.Slice16(norm(String(e.MessageField("errorMessage"))), 80), Role: "error"}}
			}
			return []model.Part{{Text: "assistant: ", Role: "assistant"}, {Text: "(no content)", Role: "muted"}}
		case RoleToolResult:
			if id := String(e.MessageField("toolCallId")); id != "" {
				if tc, ok := s.toolCalls[id]; ok {
					return []model.Part{{Text: FormatToolCall(tc.name, tc.args, home), Role: "muted"}}
				}
			}
			name := "tool"
			if n, ok := bstr(e.MessageField("toolName")); ok {
				name = n
			}
			return []model.Part{{Text: "[" + name + "]", Role: "muted"}}
		case RoleBashExecution:
			return []model.Part{{Text: "[bash]: " + norm(String(e.MessageField("command"))), Role: "dim"}}
		}
		return []model.Part{{Text: "[" + e.Role + "]", Role: "dim"}}
	case TypeCustomMessage:
		content := e.Field("content")
		text, ok := bstr(content)
		if !ok {
			text = joinText(content, "")
		}
		ct, _ := e.StringField("customType")
		return []model.Part{{Text: "[" + ct + "]: ", Role: "custom"}, {Text: norm(text), Role: ""}}
	case TypeCompaction:
		tb, _ := jsNumberValue(e.Field("tokensBefore"))
		return []model.Part{{Text: "[compaction: " + jsjson.FormatNumber(jsRound(tb/1000)) + "k tokens]", Role: "compaction"}}
	case TypeBranchSummary:
		sum, _ := e.StringField("summary")
		return []model.Part{{Text: "[branch summary]: ", Role: "warning"}, {Text: norm(sum), Role: ""}}
	case TypeModelChange:
		m, _ := e.StringField("modelId")
		return []model.Part{{Text: "[model: " + m + "]", Role: "dim"}}
	case TypeThinkingLevelChange:
		t, _ := e.StringField("thinkingLevel")
		return []model.Part{{Text: "[thinking: " + t + "]", Role: "dim"}}
	case TypeCustom:
		ct, _ := e.StringField("customType")
		return []model.Part{{Text: "[custom: " + ct + "]", Role: "dim"}}
	case TypeContextEdit:
		how := "replace"
		if string(e.Field("replacement")) == "null" {
			how = "omit"
		}
		return []model.Part{{Text: "[context " + how + ": " + jsTemplate(e.Field("targetId")) + "]", Role: "dim"}}
	case TypeLabel:
		l, ok := e.StringField("label")
		if !ok {
			l = "(cleared)"
		}
		return []model.Part{{Text: "[label: " + l + "]", Role: "dim"}}
	case TypeSessionInfo:
		if n, _ := e.StringField("name"); n != "" {
			return []model.Part{{Text: "[title: " + n + "]", Role: "dim"}}
		}
		return []model.Part{{Text: "[title: empty]", Role: "dim"}}
	}
	return nil
}

func jsRound(f float64) float64 {
	if f != f {
		return f
	}
	r := float64(int64(f))
	if f-r >= 0.5 {
		r++
	} else if f < 0 && r-f > 0.5 {
		r--
	}
	return r
}

// extractContent is pi's tree preview text: a string's first 200 UTF-16
// units, or text blocks concatenated until 200.
func extractContent(content []byte) string {
	if s, ok := bstr(content); ok {
		return utf8js.Slice16(s, 200)
	}
	var b strings.Builder
	n := 0
	_ = jscan.Elements(content, func(blk []byte) bool {
		if String(Member(blk, "type")) == "text" {
			t := String(Member(blk, "text"))
			b.WriteString(t)
			n += utf8js.Len16(t)
			if n >= 200 {
				return false
			}
		}
		return true
	})
	if n >= 200 {
		return utf8js.Slice16(b.String(), 200)
	}
	return b.String()
}

// joinText joins the text blocks of a content array with sep.
func joinText(content []byte, sep string) string {
	var parts []string
	_ = jscan.Elements(content, func(blk []byte) bool {
		if String(Member(blk, "type")) == "text" {
			parts = append(parts, String(Member(blk, "text")))
		}
		return true
	})
	return strings.Join(parts, sep)
}

// EachBlock calls fn with each element of a content array.
func EachBlock(content []byte, fn func(block []byte)) {
	_ = jscan.Elements(content, func(b []byte) bool { fn(b); return true })
}

// treeFacts finds, once, what pi's /tree reads of the assistant messages:
// the tool calls (a tool result's row shows its call), and the messages it
// hides (no text and no error or abort).
func (s *Session) treeFacts() {
	s.treeOnce.Do(func() {
		s.toolCalls = make(map[string]toolCallInfo, len(s.Entries)/4)
		s.hidden = make([]bool, len(s.Entries))
		for n := range s.Entries {
			e := &s.Entries[n]
			if e.Type != TypeMessage || e.Role != RoleAssistant {
				continue
			}
			// One walk of the message for both members (the last of each, as
			// JSON.parse keeps).
			var stopRaw, content []byte
			jscan.Fields(e.Message, func(k, val []byte) bool {
				switch {
				case jscan.KeyIs(k, "stopReason"):
					stopRaw = val
				case jscan.KeyIs(k, "content"):
					content = val
				}
				return true
			})
			stop := String(stopRaw)
			errOrAborted := stop != "" && stop != "stop" && stop != "toolUse"
			s.hidden[n] = !hasTextContent(content) && !errOrAborted
			_ = jscan.Elements(content, func(b []byte) bool {
				if String(Member(b, "type")) == "toolCall" {
					s.toolCalls[String(Member(b, "id"))] = toolCallInfo{String(Member(b, "name")), Member(b, "arguments")}
				}
				return true
			})
		}
	})
}

// TreeHidden marks the assistant messages pi's /tree hides.
func (s *Session) TreeHidden() []bool {
	s.treeFacts()
	return s.hidden
}
