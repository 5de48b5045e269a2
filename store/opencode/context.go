package opencode

import (
	"bytes"
	"encoding/json"
	"io"

	"skein/model"
)

// chatMessage is a message of an OpenAI Chat Completions request, as
// OpenCode sends its session through the AI SDK's openai-compatible
// provider (resume-request.json): the members in its order.
type chatMessage struct {
	Role       string     `json:"role"`
	Content    any        `json:"content"`
	Reasoning  *string    `json:"reasoning_content,omitempty"`
	ToolCalls  []chatCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

type chatCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type chatText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// WriteContextJSON writes the context as the messages OpenCode sends on
// resume, after its system prompt: {"messages": [...]}, a user's text as
// a string (several parts as an array of text parts), an assistant step's
// text, its reasoning as reasoning_content and its calls as tool_calls,
// each call's result as a "tool" message.
func (s *Session) WriteContextJSON(w io.Writer, ctx model.Context) error {
	var out struct {
		Messages []chatMessage `json:"messages"`
	}
	out.Messages = []chatMessage{}
	for _, cm := range ctx.Messages {
		if m, ok := s.chat(cm.Entry); ok {
			out.Messages = append(out.Messages, m)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// chat is entry i as a Chat Completions message.
func (s *Session) chat(i int) (chatMessage, bool) {
	e := s.Entries[i]
	m := &s.Messages[e.Msg]
	if e.Part >= 0 {
		p := &m.Parts[e.Part]
		text := p.State.Output
		if p.State.Status == "error" {
			text = p.State.Error
		}
		return chatMessage{Role: "tool", ToolCallID: p.CallID, Content: text}, true
	}
	switch m.Data.Role {
	case model.RoleUser:
		var texts []chatText
		for _, p := range m.Parts {
			if p.Type == "text" && !p.Ignored {
				texts = append(texts, chatText{"text", p.Text})
			}
		}
		if len(texts) == 1 {
			return chatMessage{Role: "user", Content: texts[0].Text}, true
		}
		return chatMessage{Role: "user", Content: texts}, len(texts) > 0
	case model.RoleAssistant:
		out := chatMessage{Role: "assistant"}
		var text, reasoning string
		hasReasoning := false
		for _, p := range m.Parts {
			switch p.Type {
			case "text":
				text += p.Text
			case "reasoning":
				reasoning += p.Text
				hasReasoning = true
			case "tool":
				var c chatCall
				c.ID, c.Type, c.Function.Name = p.CallID, "function", p.Tool
				var args bytes.Buffer
				if json.Compact(&args, object(p.State.Input)) != nil {
					args.WriteString("{}")
				}
				c.Function.Arguments = args.String()
				out.ToolCalls = append(out.ToolCalls, c)
			}
		}
		out.Content = text
		if hasReasoning {
			out.Reasoning = &reasoning
		}
		return out, text != "" || hasReasoning || len(out.ToolCalls) > 0
	}
	return chatMessage{}, false
}
