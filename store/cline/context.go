package cline

import (
	"bytes"
	"encoding/json"
	"strings"

	"skein/internal/llmwire"
	"skein/model"
)

// BuildContext is what Cline sends when it resumes at leaf: every stored
// message of the lead from the first, in order (the CLI keeps no other
// history: a compaction rewrites the file), each tool result of a user
// message a message of its own. A sub-agent's messages are its own
// conversation, never its parent's.
func (s *Session) BuildContext(leaf int) model.Context {
	ctx, ok := model.StartContext(leaf, len(s.Entries), s.Parent)
	if !ok {
		return ctx
	}
	for _, i := range ctx.Path {
		e := &s.Entries[i]
		p := model.Projected{Entry: i, First: len(ctx.Messages)}
		bs := blocks(e.Content)
		if e.Role == "user" && resultsOnly(bs) {
			k := 0
			for _, b := range bs {
				if b.Type == "tool_result" {
					ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i, Kind: model.KindMessage, Content: int32(-(k + 1))})
					k++
				}
			}
		} else {
			ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i, Kind: model.KindMessage})
		}
		p.N = len(ctx.Messages) - p.First
		ctx.Entries = append(ctx.Entries, p)
	}
	if m := s.Entries[leaf].ModelInfo; m != nil {
		ctx.Model = model.NewModelRef(m.Provider, m.ID)
	} else if s.Manifest != nil {
		ctx.Model = model.NewModelRef(s.Manifest.Provider, s.Manifest.Model)
	}
	return ctx
}

// OpenAIMessage is a message of an OpenAI Chat Completions request as
// Cline's openai-compatible provider writes it.
type OpenAIMessage struct {
	Role             string                 `json:"role"`
	Content          *string                `json:"content"`
	ReasoningContent string                 `json:"reasoning_content,omitempty"`
	ToolCalls        []llmwire.ChatToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string                 `json:"tool_call_id,omitempty"`
}

// OpenAIMessages are a context's messages as Cline sends them to an
// OpenAI-compatible API (the system prompt before them): a user's text
// unwrapped, an assistant's texts joined with its thinking as
// reasoning_content and its calls' inputs as JSON, each tool result a
// "tool" message.
func (s *Session) OpenAIMessages(ctx model.Context) []OpenAIMessage {
	var out []OpenAIMessage
	for _, cm := range ctx.Messages {
		m := s.Message(cm)
		switch m.Role {
		case model.RoleToolResult:
			t := m.Text("")
			out = append(out, OpenAIMessage{Role: "tool", ToolCallID: m.ToolCallID, Content: &t})
		case model.RoleUser:
			t := m.Text("\n")
			out = append(out, OpenAIMessage{Role: "user", Content: &t})
		case model.RoleAssistant:
			o := OpenAIMessage{Role: "assistant"}
			var texts, thinking []string
			for _, b := range m.Blocks {
				switch b.Type {
				case model.BlockText:
					texts = append(texts, b.Text)
				case model.BlockThinking:
					thinking = append(thinking, b.Text)
				case model.BlockToolCall:
					c := llmwire.ChatToolCall{ID: b.Call.ID, Type: "function"}
					c.Function.Name = b.Call.Name
					c.Function.Arguments = compact(b.Call.Input)
					o.ToolCalls = append(o.ToolCalls, c)
				}
			}
			if len(texts) > 0 {
				t := strings.Join(texts, "")
				o.Content = &t
			}
			o.ReasoningContent = strings.Join(thinking, "")
			out = append(out, o)
		}
	}
	return out
}

// compact is JSON as JSON.stringify writes it: the file's pretty-printed
// text without its whitespace, members in their order.
func compact(raw []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
