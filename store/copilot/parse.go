// Package copilot reads, and only reads, the sessions of GitHub Copilot CLI
// (@github/copilot 1.0.102): one folder per session,
// $COPILOT_HOME/session-state/<uuid>/, holding events.jsonl (one event a
// line: {type, data, id, timestamp, parentId}, and agentId on a
// sub-agent's) and workspace.yaml (the session's id, cwd, name and times).
// Copilot appends to events.jsonl while it runs, and again when the session
// is resumed; skein never writes to it. FORMAT.md says what each event
// holds and what skein makes of it, checked against sessions Copilot
// itself wrote (testdata/agentgen/copilot). Parse is pure; Open reads a
// folder.
package copilot

import (
	"bytes"
	"errors"
	"strconv"

	"skein/internal/jscan"
	"skein/model"
)

// Format is the name of the format in the list and in --json.
const Format = "copilot"

// The files of a session folder.
const (
	EventsFile    = "events.jsonl"
	WorkspaceFile = "workspace.yaml"
)

// Event types skein reads (the SDK's session-events schema names about
// 150; the others are kept as entries of their type).
const (
	TypeStart              = "session.start"
	TypeResume             = "session.resume"
	TypeUser               = "user.message"
	TypeSystem             = "system.message"
	TypeAssistant          = "assistant.message"
	TypeToolStart          = "tool.execution_start"
	TypeToolComplete       = "tool.execution_complete"
	TypeUsage              = "session.usage_record"
	TypeModelChange        = "session.model_change"
	TypeTitleChanged       = "session.title_changed"
	TypeError              = "session.error"
	TypeCompactionStart    = "session.compaction_start"
	TypeCompactionComplete = "session.compaction_complete"
	TypeRewind             = "session.snapshot_rewind"
	TypeSubagentStarted    = "subagent.started"
)

// ErrNotSession is Parse's error for bytes with no Copilot event in them.
var ErrNotSession = errors.New("not a Copilot CLI session: no event line {type, data, id}")

// Event is one line of events.jsonl. Data stays JSON; the strings share
// nothing with the file's memory but Raw and Data.
type Event struct {
	Type      string
	ID        string
	ParentID  string // "" for null
	Timestamp string
	AgentID   string // a sub-agent's events carry it; "" for the main agent's
	Data      []byte // the data object, nil when absent
	Raw       []byte // the line, without its line ending
	Line      int    // 1-based

	key  string // ID, or when ID is "" or an earlier event's, ID@L<line>
	kind model.EntryKind
	role string
}

// Workspace is what workspace.yaml says: plain `key: value` lines.
type Workspace struct {
	ID, Cwd, Name, CreatedAt, UpdatedAt string
	UserNamed                           bool
}

// Session is a parsed session folder.
type Session struct {
	Events      []Event
	Workspace   Workspace
	Diagnostics []model.Diagnostic

	parent []int          // by event: its parent's index, -1 for a root
	index  map[string]int // event id -> index (the first)
	calls  map[string]int // toolCallId -> the assistant.message that asked for it
	usage  map[string]int // apiCallId -> its session.usage_record
	// subagents: toolCallId -> the subagent.started of the sub-agent it started
	subagents map[string]int
	path      string
}

// Parse reads the bytes of an events.jsonl. A line that is not a JSON
// object with a string type is skipped with a diagnostic.
func Parse(data []byte) (*Session, error) {
	s := &Session{index: map[string]int{}, calls: map[string]int{}, usage: map[string]int{}, subagents: map[string]int{}}
	line := 0
	for len(data) > 0 {
		line++
		raw := data
		if k := bytes.IndexByte(data, '\n'); k >= 0 {
			raw, data = data[:k], data[k+1:]
		} else {
			data = nil
		}
		raw = bytes.TrimSuffix(raw, []byte{'\r'})
		if len(jscan.TrimBlank(raw)) == 0 {
			continue
		}
		e, ok := parseEvent(raw, line)
		if !ok {
			s.Diagnostics = append(s.Diagnostics, model.Diagnostic{File: EventsFile, Line: line, Msg: "skipped: not an event (a JSON object with a string type)"})
			continue
		}
		s.Events = append(s.Events, e)
	}
	if len(s.Events) == 0 {
		return nil, ErrNotSession
	}
	s.link()
	return s, nil
}

// parseEvent reads one line's envelope.
func parseEvent(raw []byte, line int) (Event, bool) {
	e := Event{Raw: raw, Line: line}
	if !jscan.Valid(raw) || jscan.TrimBlank(raw)[0] != '{' {
		return e, false
	}
	typed := false
	jscan.Strings(raw, []string{"id", "parentId", "timestamp", "agentId"}, []*string{&e.ID, &e.ParentID, &e.Timestamp, &e.AgentID}, func(k string, v []byte) {
		switch k {
		case "type":
			e.Type, typed = jscan.String(v)
		case "data":
			if len(v) > 0 && v[0] == '{' {
				e.Data = v
			}
		}
	})
	if !typed {
		return e, false
	}
	e.kind, e.role = kindOf(&e)
	return e, true
}

// kindOf is what an event is in the domain's terms.
func kindOf(e *Event) (model.EntryKind, string) {
	switch e.Type {
	case TypeUser:
		return model.EntryMessage, model.RoleUser
	case TypeAssistant, TypeError:
		return model.EntryMessage, model.RoleAssistant
	case TypeToolComplete:
		return model.EntryMessage, model.RoleToolResult
	case TypeSystem:
		return model.EntryMessage, model.RoleSystem
	case TypeCompactionComplete:
		if b, _ := boolOf(jscan.Member(e.Data, "success")); b {
			return model.EntryCompaction, ""
		}
	case TypeModelChange:
		return model.EntryModelChange, ""
	case TypeTitleChanged:
		return model.EntryTitle, ""
	}
	return model.EntryOther, ""
}

// link makes the tree from each event's parentId, and the indexes of ids,
// calls and usage records. A parent named but not found before the event
// (a line lost, or a later one) is the previous event: Copilot writes one
// chain, each event's parent the event before it.
func (s *Session) link() {
	s.parent = make([]int, len(s.Events))
	for i := range s.Events {
		e := &s.Events[i]
		e.key = e.ID
		if _, dup := s.index[e.key]; dup || e.key == "" {
			e.key = e.ID + "@L" + strconv.Itoa(e.Line)
			s.Diagnostics = append(s.Diagnostics, model.Diagnostic{File: EventsFile, Line: e.Line, Msg: "an event without an id of its own (" + strconv.Quote(e.ID) + "): named " + e.key, Warning: true})
		}
		s.index[e.key] = i
		switch j, ok := s.index[e.ParentID]; {
		case e.ParentID == "":
			s.parent[i] = -1
		case ok && j < i:
			s.parent[i] = j
		default:
			s.parent[i] = i - 1
			s.Diagnostics = append(s.Diagnostics, model.Diagnostic{File: EventsFile, Line: e.Line, Msg: "parentId " + e.ParentID + " is no earlier event: taken as the event before", Warning: true})
		}
		switch e.Type {
		case TypeAssistant:
			jscan.Items(jscan.Member(e.Data, "toolRequests"), func(v []byte) bool {
				if id := str(v, "toolCallId"); id != "" {
					if _, dup := s.calls[id]; !dup {
						s.calls[id] = i
					}
				}
				return true
			})
		case TypeUsage:
			if id := str(jscan.Member(e.Data, "usage"), "apiCallId"); id != "" {
				s.usage[id] = i
			}
		case TypeSubagentStarted:
			if id := str(e.Data, "toolCallId"); id != "" {
				s.subagents[id] = i
			}
		}
	}
}

// str is the string member key of obj, "" when absent or not a string.
func str(obj []byte, key string) string {
	if len(obj) == 0 || obj[0] != '{' {
		return ""
	}
	v, _ := jscan.String(jscan.Member(obj, key))
	return v
}

// num is the number member key of obj.
func num(obj []byte, key string) (float64, bool) {
	if len(obj) == 0 || obj[0] != '{' {
		return 0, false
	}
	return jscan.Number(jscan.Member(obj, key))
}

func boolOf(v []byte) (bool, bool) {
	switch string(v) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// ParseWorkspace reads workspace.yaml: Copilot writes flat `key: value`
// lines (a value quoted when YAML needs it); anything else is ignored.
func ParseWorkspace(data []byte) Workspace {
	var w Workspace
	for _, l := range bytes.Split(data, []byte{'\n'}) {
		k, v, ok := bytes.Cut(bytes.TrimRight(l, "\r"), []byte(": "))
		if !ok || len(k) == 0 || k[0] == ' ' || k[0] == '#' {
			continue
		}
		val := yamlScalar(string(bytes.TrimSpace(v)))
		switch string(k) {
		case "id":
			w.ID = val
		case "cwd":
			w.Cwd = val
		case "name":
			w.Name = val
		case "created_at":
			w.CreatedAt = val
		case "updated_at":
			w.UpdatedAt = val
		case "user_named":
			w.UserNamed = val == "true"
		}
	}
	return w
}

// yamlScalar is a plain or quoted YAML scalar's value: a double-quoted one
// read as JSON (YAML's double-quoted escapes are JSON's and a few more), a
// single-quoted one with each doubled quote read as one.
func yamlScalar(v string) string {
	switch {
	case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
		if s, ok := jscan.String([]byte(v)); ok {
			return s
		}
		return v[1 : len(v)-1]
	case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
		return string(bytes.ReplaceAll([]byte(v[1:len(v)-1]), []byte("''"), []byte("'")))
	}
	return v
}
