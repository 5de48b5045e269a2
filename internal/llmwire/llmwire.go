// Package llmwire holds what agents keep of the LLM APIs they call, in
// the APIs' own shapes: Anthropic's content blocks (Cline and Cursor store
// them as they were sent), OpenAI Chat's tool calls (what Cline and the
// converter's OpenAI Chat files hold), and the tags an agent wraps the
// parts of a prompt in. Each format read them with a copy of its own.
package llmwire

import (
	"encoding/json"
	"strings"

	"skein/internal/jscan"
)

// Block is a content block of Anthropic's Messages API (text, thinking,
// redacted_thinking, image, tool_use, tool_result); a member the block
// lacks is left zero.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Source    *struct {
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
}

// Blocks are a message's content blocks: a string content is one text
// block, an array its blocks less those that do not read, anything else
// none.
func Blocks(content []byte) []Block {
	i := jscan.SkipSpace(content, 0)
	if i == len(content) {
		return nil
	}
	switch content[i] {
	case '"':
		var s string
		_ = json.Unmarshal(content, &s)
		return []Block{{Type: "text", Text: s}}
	case '[':
		var raws []json.RawMessage
		if json.Unmarshal(content, &raws) != nil {
			return nil
		}
		out := make([]Block, 0, len(raws))
		for _, r := range raws {
			var b Block
			if json.Unmarshal(r, &b) == nil {
				out = append(out, b)
			}
		}
		return out
	}
	return nil
}

// ChatToolCall is a tool call of an assistant message of OpenAI's Chat
// Completions API, its arguments a string of JSON.
type ChatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Between is the text between the first open in s and the first close
// after it (a tag's text: "<user_query>", "</user_query>"); ok is false
// when either is missing.
func Between(s, open, close string) (in string, ok bool) {
	_, rest, ok := strings.Cut(s, open)
	if !ok {
		return "", false
	}
	in, _, ok = strings.Cut(rest, close)
	return in, ok
}
