package opencode

import (
	"bytes"
	"encoding/json"
	"io"
	"path"
	"strings"

	"skein/internal/jsdate"
	"skein/internal/llmwire"

	"skein/model"
)

// chatMessage is a message of an OpenAI Chat Completions request, as
// OpenCode sends its session through the AI SDK's openai-compatible
// provider (resume-request.json): the members in its order.
type chatMessage struct {
	Role       string                 `json:"role"`
	Content    any                    `json:"content"`
	Reasoning  *string                `json:"reasoning_content,omitempty"`
	ToolCalls  []llmwire.ChatToolCall `json:"tool_calls,omitempty"`
	ToolCallID string                 `json:"tool_call_id,omitempty"`
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
		details := s.Kilo
		for _, p := range m.Parts {
			if p.Type == "text" && !p.Ignored {
				texts = append(texts, chatText{"text", p.Text})
			}
			if p.Type == "text" && p.Synthetic && strings.HasPrefix(strings.TrimLeft(p.Text, " \t\r\n"), "<environment_details>") {
				details = false // stored already (Kilo adds none then)
			}
		}
		if details {
			texts = append(texts, chatText{"text", s.envDetails(m)})
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
				var c llmwire.ChatToolCall
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
		if text == "" && s.Kilo {
			out.Content = nil
		}
		if hasReasoning {
			out.Reasoning = &reasoning
		}
		return out, text != "" || hasReasoning || len(out.ToolCalls) > 0
	}
	return chatMessage{}, false
}

// envDetails is the text Kilo adds to a user message when it sends it
// (injectEditorContext, Kilo CLI 7.7.9): the message's time (ISO, without
// its milliseconds), the session's folder and its worktree (the folder up
// as many levels as the session's path below the worktree has), and what
// the message's editorContext says (which may name another folder and
// worktree).
func (s *Session) envDetails(m *Message) string {
	dir := s.Row.Directory
	root := dir
	for _, seg := range strings.Split(s.Row.Path, "/") {
		if seg != "" {
			root = path.Dir(root)
		}
	}
	lines := []string{"", "", "<environment_details>"}
	t, _ := jsdate.ISO(m.Created)
	if k := strings.LastIndexByte(t, '.'); k >= 0 && strings.HasSuffix(t, "Z") {
		t = t[:k] + "Z"
	}
	lines = append(lines, "Message time: "+t)
	ec := m.Data.EditorContext
	if ec == nil {
		ec = &EditorContext{}
	}
	if ec.Directory != nil {
		dir = *ec.Directory
	}
	if ec.Worktree != nil {
		root = *ec.Worktree
	}
	if dir != "" {
		lines = append(lines, "Working directory: "+dir)
	}
	if root != "" {
		lines = append(lines, "Workspace root folder: "+root)
	}
	if ec.ActiveFile != "" {
		lines = append(lines, "Active file: "+ec.ActiveFile)
	}
	for _, l := range []struct {
		name  string
		files []string
	}{{"Visible files:", ec.VisibleFiles}, {"Open tabs:", ec.OpenTabs}} {
		if len(l.files) > 0 {
			lines = append(lines, l.name)
			for _, f := range l.files {
				lines = append(lines, "  "+f)
			}
		}
	}
	return strings.Join(append(lines, "</environment_details>"), "\n")
}
