// Package cursor reads Cursor's agent transcripts, read-only: the JSONL
// files Cursor (its IDE's agent and its CLI, cursor-agent) writes in
// ~/.cursor/projects/<project>/agent-transcripts/. Cursor does not run
// here: the format is as FORMAT.md says, from peers' readers.
package cursor

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"skein/internal/jsdate"
	"skein/internal/llmwire"
	"skein/model"
)

// Format is the format's name in the list and the indexes.
const Format = "cursor"

// ErrNotSession is a file with no record of Cursor's.
var ErrNotSession = errors.New("not a Cursor agent transcript")

// AgentFile is a sub-agent's transcript (subagents/<id>.jsonl): its name
// relative to the session's folder and its bytes.
type AgentFile struct {
	Name string
	Data []byte
}

// Entry is one message of a transcript (a record may give several: a
// user record's tool results are one each), or a record that is none.
type Entry struct {
	File   int // 0: the session's file; k: Agents[k-1]
	Line   int
	Raw    []byte
	id     string
	kind   model.EntryKind
	typ    string
	msg    model.Message
	time   float64 // ms, NaN when none
	parent int
}

// Session is a transcript and its sub-agents' transcripts.
type Session struct {
	Entries     []Entry
	Agents      []string
	Diagnostics []model.Diagnostic
	leaf        int
	path        string
}

// Parse reads a transcript alone.
func Parse(data []byte) (*Session, error) { return ParseFiles(data, nil) }

// ParseFiles reads a transcript and its sub-agents' transcripts; a
// sub-agent hangs under the call whose prompt is its first request.
func ParseFiles(data []byte, agents []AgentFile) (*Session, error) {
	s := &Session{leaf: -1}
	if !s.parseFile(0, data) {
		return nil, ErrNotSession
	}
	for i := range s.Entries {
		if s.Entries[i].File == 0 {
			s.leaf = i
		}
	}
	for k, a := range agents {
		s.Agents = append(s.Agents, a.Name)
		first := len(s.Entries)
		s.parseFile(k+1, a.Data)
		if first < len(s.Entries) {
			s.Entries[first].parent = s.callOf(s.Entries[first:])
		}
	}
	return s, nil
}

// Sniff reports whether a file's first line is a record of Cursor's.
func Sniff(head []byte) bool {
	line, _, _ := bytes.Cut(bytes.TrimLeft(head, " \t\r\n"), []byte("\n"))
	return IsRecord(line)
}

// IsRecord is a line {"role":"user"|"assistant","message":{...}} with no
// type, uuid or timestamp of its own (Claude Code's lines have them), or a
// turn_ended marker.
func IsRecord(line []byte) bool {
	var r struct {
		Role      string          `json:"role"`
		Message   json.RawMessage `json:"message"`
		Type      *string         `json:"type"`
		UUID      *string         `json:"uuid"`
		Timestamp json.RawMessage `json:"timestamp"`
		Status    *string         `json:"status"`
	}
	if json.Unmarshal(bytes.TrimSpace(line), &r) != nil {
		return false
	}
	if r.Type != nil {
		return *r.Type == "turn_ended" && r.Status != nil && r.Role == ""
	}
	return (r.Role == "user" || r.Role == "assistant") && len(r.Message) > 0 && r.Message[0] == '{' && r.UUID == nil && r.Timestamp == nil
}

type record struct {
	Role    string `json:"role"`
	Type    string `json:"type"`
	Status  string `json:"status"`
	Error   string `json:"error"`
	Message struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// parseFile adds file f's records; false when no line is Cursor's.
func (s *Session) parseFile(f int, data []byte) bool {
	var pending []int // calls without a result, in order: their entries' call blocks
	type callRef struct{ entry, block int }
	var calls []callRef
	any := false
	prev := -1
	lastTime := nan()
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var r record
		if err := json.Unmarshal(line, &r); err != nil || line[0] != '{' {
			msg := "not a JSON object"
			if err != nil {
				msg = "not JSON: " + err.Error()
			}
			s.Diagnostics = append(s.Diagnostics, model.Diagnostic{File: s.fileName(f), Line: n + 1, Msg: msg})
			continue
		}
		if IsRecord(line) {
			any = true
		}
		add := func(e Entry) {
			e.File, e.Line, e.Raw, e.parent = f, n+1, line, prev
			if e.id == "" {
				e.id = s.idOf(f, n+1, "")
			}
			if e.time != e.time || e.time == 0 { // none of its own: the request's
				e.time = lastTime
			}
			if e.kind == model.EntryMessage && e.time == e.time {
				e.msg.Time, e.msg.HasTime = e.time, true
			}
			prev = len(s.Entries)
			s.Entries = append(s.Entries, e)
		}
		switch {
		case r.Type == "turn_ended":
			if r.Status == "success" || r.Status == "" {
				add(Entry{kind: model.EntryOther, typ: "turn_ended"})
				continue
			}
			text := r.Error
			if text == "" {
				text = "turn ended: " + r.Status
			}
			add(Entry{kind: model.EntryMessage, typ: "turn_ended", msg: model.Message{Role: model.RoleAssistant, Error: text, StopReason: "error", Excluded: true}})
		case r.Role == "user" || r.Role == "assistant":
			blocks := llmwire.Blocks(r.Message.Content)
			msg := model.Message{Role: r.Role}
			var results []llmwire.Block
			t := nan()
			for k, b := range blocks {
				switch b.Type {
				case "text":
					if r.Role == "user" {
						var query string
						query, t = userText(b.Text, t)
						msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockText, Name: "text", Text: query})
					} else if strings.TrimSpace(b.Text) == "[REDACTED]" {
						msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockThinking, Name: "redacted"})
					} else {
						msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockText, Name: "text", Text: b.Text})
					}
				case "thinking", "redacted_thinking", "redacted":
					msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockThinking, Name: b.Type, Text: b.Thinking})
				case "tool_use":
					id := b.ID
					if id == "" {
						id = s.idOf(f, n+1, "c"+strconv.Itoa(k))
					}
					in := []byte(b.Input)
					if len(in) == 0 || in[0] != '{' {
						in = []byte("{}")
					}
					calls = append(calls, callRef{len(s.Entries), len(msg.Blocks)})
					pending = append(pending, len(calls)-1)
					msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockToolCall, Name: "tool_use", Call: model.ToolCall{ID: id, Name: b.Name, Input: in}})
				case "tool_result":
					results = append(results, b)
				default:
					msg.Blocks = append(msg.Blocks, model.Block{Type: model.BlockOther, Name: b.Type, Text: b.Text})
				}
			}
			if len(msg.Blocks) > 0 || len(results) == 0 {
				add(Entry{kind: model.EntryMessage, typ: r.Role, msg: msg, time: t})
				if t == t {
					lastTime = t
				}
			}
			for k, b := range results {
				res := model.Message{Role: model.RoleToolResult, ToolCallID: b.ToolUseID, IsError: b.IsError}
				// The call it answers: by id, else the earliest unanswered.
				for q, c := range pending {
					call := s.Entries[calls[c].entry].msg.Blocks[calls[c].block].Call
					if (b.ToolUseID == "" && q == 0) || call.ID == b.ToolUseID {
						res.ToolCallID, res.ToolName = call.ID, call.Name
						pending = append(pending[:q:q], pending[q+1:]...)
						break
					}
				}
				for _, cb := range llmwire.Blocks(b.Content) {
					if cb.Type == "text" {
						res.Blocks = append(res.Blocks, model.Block{Type: model.BlockText, Name: "text", Text: cb.Text})
					}
				}
				add(Entry{kind: model.EntryMessage, typ: "tool_result", id: s.idOf(f, n+1, "r"+strconv.Itoa(k)), msg: res})
			}
		default:
			add(Entry{kind: model.EntryOther, typ: r.Type})
		}
	}
	return any
}

// userText is what the user typed: the text in <user_query>, else the
// whole; and the time in a <timestamp> tag before it (NaN, or t, when
// none reads).
func userText(text string, t float64) (string, float64) {
	if ts, ok := llmwire.Between(text, "<timestamp>", "</timestamp>"); ok {
		if v := jsdate.Parse(strings.TrimSpace(ts)); v == v {
			t = v
		}
	}
	if q, ok := llmwire.Between(text, "<user_query>", "</user_query>"); ok {
		return strings.TrimSpace(q), t
	}
	return text, t
}

// idOf names an entry by its file and line: Cursor's records carry no id.
func (s *Session) idOf(f, line int, part string) string {
	id := "L" + strconv.Itoa(line)
	if part != "" {
		id += "." + part
	}
	if f > 0 {
		id = strconv.Itoa(f) + ":" + id
	}
	return id
}

func (s *Session) fileName(f int) string {
	if f == 0 || f > len(s.Agents) {
		return ""
	}
	return s.Agents[f-1]
}

// callOf is the entry of the session's call (a Task or Subagent call, or
// any whose input's prompt is the sub-agent's first request) that started
// the sub-agent whose entries are es; -1 when none did.
func (s *Session) callOf(es []Entry) int {
	first := ""
	for _, e := range es {
		if e.kind == model.EntryMessage && e.msg.Role == model.RoleUser {
			first = strings.TrimSpace(e.msg.Text("\n"))
			break
		}
	}
	if first == "" {
		return -1
	}
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.File != 0 || e.msg.Role != model.RoleAssistant {
			continue
		}
		for _, c := range e.msg.ToolCalls() {
			var in struct {
				Prompt string `json:"prompt"`
			}
			if json.Unmarshal(c.Input, &in) == nil && strings.TrimSpace(in.Prompt) == first {
				return i
			}
		}
	}
	return -1
}

func nan() float64 { return jsdate.Parse("") }
