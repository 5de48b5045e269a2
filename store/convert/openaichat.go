package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"skein/internal/jsjson"
	"skein/internal/llmwire"
	"skein/model"
	"skein/store"
	"skein/store/pi"
)

// OpenAI Chat (FORMATS.md §3): a JSON array, or {"messages": [...]}, of
// {role: system|user|assistant|tool, content, tool_calls?, tool_call_id?};
// no ids, no times. It is read by writing it as pi's lines (ids and times
// made up, in order, one second apart from the file's modification time)
// and reading those, so that it goes through the same conversion as every
// other format.

type chatMessage struct {
	Role       string                 `json:"role"`
	Content    json.RawMessage        `json:"content"`
	Name       string                 `json:"name"`
	ToolCalls  []llmwire.ChatToolCall `json:"tool_calls"`
	ToolCallID string                 `json:"tool_call_id"`
}

// openChat reads an OpenAI Chat conversation.
func openChat(path string) (*model.Session, error) {
	data, err := store.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		var wrapped struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if err2 := json.Unmarshal(data, &wrapped); err2 != nil || wrapped.Messages == nil {
			return nil, &store.NotSession{Reason: "not OpenAI Chat JSON (an array of messages, or {\"messages\": [...]}): " + err.Error(), Named: true}
		}
		raws = wrapped.Messages
	}
	// A message that is not one (a role that is no string, calls that are
	// no list) is kept as data, under the role "invalid".
	msgs := make([]chatMessage, len(raws))
	for k, r := range raws {
		if json.Unmarshal(r, &msgs[k]) != nil {
			msgs[k] = chatMessage{Role: "invalid", Content: r}
		}
	}
	start := time.Now()
	if st, err := os.Stat(path); err == nil {
		start = st.ModTime().Add(-time.Duration(len(msgs)) * time.Second)
	}
	var lines bytes.Buffer
	ts := func(k int) (string, int64) {
		t := start.Add(time.Duration(k) * time.Second).UTC()
		return t.Format("2006-01-02T15:04:05.000Z"), t.UnixMilli()
	}
	iso, _ := ts(0)
	fmt.Fprintf(&lines, `{"type":"session","version":3,"id":%s,"timestamp":%q,"cwd":""}`+"\n", jsjson.AppendString(nil, "openai-"+filepath.Base(path)), iso)
	names := map[string]string{}
	parent := "null"
	for k, m := range msgs {
		iso, ms := ts(k)
		id := fmt.Sprintf("%08x", k+1)
		var msg []byte
		content := chatContent(m.Content)
		switch m.Role {
		case "user", "system", "developer":
			role := "user"
			if m.Role != "user" {
				role = "system"
			}
			msg = fmt.Appendf(nil, `{"role":%q,"content":%s,"timestamp":%d}`, role, content, ms)
		case "assistant":
			blocks := bytes.TrimSuffix(content, []byte("]"))
			for _, c := range m.ToolCalls {
				names[c.ID] = c.Function.Name
				args := []byte(c.Function.Arguments)
				if !json.Valid(args) || len(bytes.TrimSpace(args)) == 0 || bytes.TrimSpace(args)[0] != '{' {
					args = fmt.Appendf(nil, `{"arguments":%s}`, jsjson.AppendString(nil, c.Function.Arguments))
				} else {
					args = jsjson.AppendValue(nil, bytes.TrimSpace(args)) // on one line
				}
				if len(blocks) > 1 {
					blocks = append(blocks, ',')
				}
				blocks = fmt.Appendf(blocks, `{"type":"toolCall","id":%s,"name":%s,"arguments":%s}`, jsjson.AppendString(nil, c.ID), jsjson.AppendString(nil, c.Function.Name), args)
			}
			blocks = append(blocks, ']')
			msg = fmt.Appendf(nil, `{"role":"assistant","content":%s,"timestamp":%d}`, blocks, ms)
		case "tool", "function":
			name := names[m.ToolCallID]
			if name == "" {
				name = m.Name
			}
			msg = fmt.Appendf(nil, `{"role":"toolResult","toolCallId":%s,"toolName":%s,"content":%s,"isError":false,"timestamp":%d}`, jsjson.AppendString(nil, m.ToolCallID), jsjson.AppendString(nil, name), content, ms)
		default:
			raw := jsjson.AppendValue(nil, bytes.TrimSpace(raws[k])) // the message as the file has it, on one line
			fmt.Fprintf(&lines, `{"type":"custom","id":%q,"parentId":%s,"timestamp":%q,"customType":"openai.%s","data":%s}`+"\n", id, parent, iso, jsonSafeName(m.Role), raw)
			parent = strconv.Quote(id)
			continue
		}
		fmt.Fprintf(&lines, `{"type":"message","id":%q,"parentId":%s,"timestamp":%q,"message":%s}`+"\n", id, parent, iso, msg)
		parent = strconv.Quote(id)
	}
	s, err := pi.Parse(lines.Bytes())
	if err != nil {
		return nil, err
	}
	info, _ := pi.ScanInfo(lines.Bytes(), float64(start.UnixMilli()))
	info.Path, info.Format, info.Cwd = path, "openai", ""
	return s.Domain(info), nil
}

// chatContent is a message's content as pi's blocks: a string is one text
// block; parts of type text (or input_text/output_text) keep their text,
// image_url parts become placeholders in text.
func chatContent(raw json.RawMessage) []byte {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return []byte("[]")
		}
		return fmt.Appendf(nil, `[{"type":"text","text":%s}]`, jsjson.AppendString(nil, s))
	}
	var parts []struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		ImageURL json.RawMessage `json:"image_url"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		if len(raw) == 0 || string(raw) == "null" {
			return []byte("[]")
		}
		return fmt.Appendf(nil, `[{"type":"text","text":%s}]`, jsjson.AppendString(nil, string(raw)))
	}
	out := []byte("[")
	for _, p := range parts {
		text := p.Text
		if p.Type == "image_url" {
			text = "[image: " + string(p.ImageURL) + "]"
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = fmt.Appendf(out, `{"type":"text","text":%s}`, jsjson.AppendString(nil, text))
	}
	return append(out, ']')
}

func jsonSafeName(s string) string {
	var b []byte
	for _, c := range []byte(s) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b = append(b, c)
		}
	}
	if len(b) == 0 {
		return "unknown"
	}
	return string(b)
}
