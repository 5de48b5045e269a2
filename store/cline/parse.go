// Package cline reads Cline's sessions, read-only: the CLI's session
// folders (~/.cline/data/sessions/<id>/<id>.messages.json, with the
// manifest <id>.json and its sub-agents' <agentId>.messages.json beside
// it) and the VS Code extension's tasks/<id>/api_conversation_history.json.
// Both are whole-file JSON that Cline rewrites on every change; FORMAT.md
// says what each holds.
package cline

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"skein/internal/llmwire"
	"skein/model"
)

// Format is the format's name in the list and the indexes.
const Format = "cline"

// ErrNotSession is a file that is no Cline session.
var ErrNotSession = errors.New("not a Cline session")

// Message is one stored message: Anthropic's MessageParam with Cline's
// id, ts, modelInfo and metrics.
type Message struct {
	ID        string          `json:"id"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Ts        *float64        `json:"ts"`
	ModelInfo *struct {
		ID       string `json:"id"`
		Provider string `json:"provider"`
	} `json:"modelInfo"`
	Metrics *Metrics `json:"metrics"`
}

// Metrics are an assistant reply's usage as Cline recorded it: inputTokens
// counts the cached tokens too (the provider's prompt_tokens).
type Metrics struct {
	InputTokens      float64  `json:"inputTokens"`
	OutputTokens     float64  `json:"outputTokens"`
	CacheReadTokens  float64  `json:"cacheReadTokens"`
	CacheWriteTokens float64  `json:"cacheWriteTokens"`
	Cost             *float64 `json:"cost"`
}

// Block is a content block (text, thinking, redacted_thinking, image,
// tool_use, tool_result): Anthropic's, as Cline stores it.
type Block = llmwire.Block

// File is a messages file: the CLI's envelope, or the extension's bare
// array (Version 0).
type File struct {
	Version   int               `json:"version"`
	UpdatedAt string            `json:"updated_at"`
	Agent     string            `json:"agent"`
	SessionID string            `json:"sessionId"`
	TaskType  string            `json:"taskType"`
	Messages  []json.RawMessage `json:"messages"`
	Origin    struct {
		ParentThreadID string `json:"parentThreadId"`
		Subagent       string `json:"subagent"`
	} `json:"origin"`
	SystemPrompt string `json:"system_prompt"`
}

// Manifest is the CLI's <id>.json beside the messages.
type Manifest struct {
	SessionID     string `json:"session_id"`
	StartedAt     string `json:"started_at"`
	EndedAt       string `json:"ended_at"`
	Status        string `json:"status"`
	Provider      string `json:"provider"`
	Model         string `json:"model"`
	Cwd           string `json:"cwd"`
	WorkspaceRoot string `json:"workspace_root"`
	Prompt        string `json:"prompt"`
	Metadata      struct {
		Title string `json:"title"`
	} `json:"metadata"`
}

// parseFile reads a messages file: an object with messages (the CLI's),
// or an array of messages (the extension's). Each message that does not
// read is a diagnostic, and the others are kept.
func parseFile(data []byte, name string) (File, []Message, []model.Diagnostic, error) {
	var f File
	var raws []json.RawMessage
	switch firstByte(data) {
	case '{':
		if err := json.Unmarshal(data, &f); err != nil {
			return f, nil, nil, fmt.Errorf("%w: %v", ErrNotSession, err)
		}
		if f.Messages == nil && f.SessionID == "" {
			return f, nil, nil, fmt.Errorf("%w: no messages", ErrNotSession)
		}
		raws = f.Messages
	case '[':
		if err := json.Unmarshal(data, &raws); err != nil {
			return f, nil, nil, fmt.Errorf("%w: %v", ErrNotSession, err)
		}
	default:
		return f, nil, nil, fmt.Errorf("%w: not JSON", ErrNotSession)
	}
	var out []Message
	var diags []model.Diagnostic
	for k, r := range raws {
		var m Message
		err := json.Unmarshal(r, &m)
		if err == nil && m.Role != "user" && m.Role != "assistant" {
			err = fmt.Errorf("role %q", m.Role)
		}
		if err != nil {
			diags = append(diags, model.Diagnostic{File: name, Msg: "message " + strconv.Itoa(k) + " left out: " + err.Error(), Warning: true})
			continue
		}
		out = append(out, m)
	}
	return f, out, diags, nil
}

func firstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// blocks are a message's content blocks; a string content is one text
// block, and a block that does not read is left out.
func blocks(content json.RawMessage) []Block { return llmwire.Blocks(content) }

func jsonValid(b []byte) bool             { return json.Valid(b) }
func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
