// Package kimicli reads, and only reads, the legacy (Python) Kimi CLI's
// session logs: $KIMI_SHARE_DIR/sessions/<md5 of the cwd>/<uuid>/wire.jsonl
// (~/.kimi when KIMI_SHARE_DIR is not set), one JSON record a line: a
// metadata line, then {timestamp, message: {type, payload}} records of
// the wire the CLI shows its UI (TurnBegin, StepBegin, ContentPart,
// ToolCall, ToolResult, StatusUpdate...). FORMAT.md says what the records
// hold, where it was learned (kimi-cli's source) and what this package
// decided. Parse is pure; Open reads the files.
package kimicli

import (
	"errors"

	"skein/internal/jscan"
	"skein/model"
)

// Format is the name of the format in the list and in --json.
const Format = "kimicli"

// ErrNotSession is Parse's error for bytes with no legacy Kimi CLI wire record.
var ErrNotSession = errors.New("not a legacy Kimi CLI wire file: no metadata line and no {timestamp, message} record")

// Wire message types skein reads (the envelope's "type").
const (
	TypeTurnBegin  = "TurnBegin"
	TypeSteer      = "SteerInput"
	TypeStepBegin  = "StepBegin"
	TypePart       = "ContentPart"
	TypeToolCall   = "ToolCall"
	TypeCallPart   = "ToolCallPart"
	TypeToolResult = "ToolResult"
	TypeStatus     = "StatusUpdate"
	TypeCompaction = "CompactionEnd"
)

// Entry is one line of a wire file: the envelope's type, its payload, the
// time (timestamp, in seconds, as ms) and the line as stored.
type Entry struct {
	Raw     []byte
	Payload []byte
	Line    int
	Type    string
	Time    float64
	CallID  string // a ToolCall's id, a ToolResult's tool_call_id
	kind    model.EntryKind
	role    string
}

// Session is a parsed wire file: its lines in order, one branch.
type Session struct {
	model.Links
	Entries     []Entry
	Diagnostics []model.Diagnostic
	ID          string
	cwd         string
	leaf        int
}

// Sniff reports whether a file's first line is the legacy wire's metadata
// line (or, for a file from before it had one, a wire record).
func Sniff(head []byte) bool {
	line, _, ok := jscan.FirstLine(head)
	return ok && IsRecord(line)
}

// IsRecord: a {"type":"metadata","protocol_version":...} line with no
// agentId (Kimi Code's has one... and its records do), or a record with a
// number timestamp and a message with a type.
func IsRecord(line []byte) bool {
	line = jscan.TrimBlank(line)
	if len(line) == 0 || line[0] != '{' || jscan.ObjectMember(line, "agentId") != nil {
		return false
	}
	if jscan.StringMember(line, "type") == "metadata" {
		return jscan.ObjectMember(line, "protocol_version") != nil && jscan.ObjectMember(line, "created_at") == nil
	}
	_, ok := jscan.Number(jscan.ObjectMember(line, "timestamp"))
	return ok && jscan.StringMember(jscan.ObjectMember(line, "message"), "type") != ""
}

// Parse reads a wire file: every line an entry, each the child of the one
// before it (the wire has no branches: a /undo rewrites context.jsonl,
// not the wire).
func Parse(data []byte) (*Session, error) {
	s := &Session{leaf: -1}
	for line, raw := range jscan.Lines(data) {
		if raw[0] != '{' || !jscan.Valid(raw) {
			s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: line, Warning: true, Msg: "not a JSON object: left out"})
			continue
		}
		e := Entry{Raw: raw, Line: line, kind: model.EntryOther}
		if jscan.StringMember(raw, "type") == "metadata" {
			e.Type = "metadata"
		} else {
			msg := jscan.ObjectMember(raw, "message")
			e.Type, e.Payload = jscan.StringMember(msg, "type"), jscan.ObjectMember(msg, "payload")
			if sec, ok := jscan.Number(jscan.ObjectMember(raw, "timestamp")); ok {
				e.Time = sec * 1000
			}
			if e.Type == "" {
				s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: line, Warning: true, Msg: "a record with no message type: kept as data"})
			}
		}
		switch e.Type {
		case TypeTurnBegin, TypeSteer:
			e.kind, e.role = model.EntryMessage, model.RoleUser
		case TypeStepBegin:
			e.kind, e.role = model.EntryMessage, model.RoleAssistant
		case TypeToolCall:
			e.CallID = jscan.StringMember(e.Payload, "id")
		case TypeToolResult:
			e.CallID = jscan.StringMember(e.Payload, "tool_call_id")
			e.kind, e.role = model.EntryMessage, model.RoleToolResult
		case TypeStatus:
			if jscan.ObjectMember(e.Payload, "token_usage") != nil {
				e.kind = model.EntryUsage
			}
		}
		s.Entries = append(s.Entries, e)
	}
	if len(s.Entries) == 0 || !IsRecord(s.Entries[0].Raw) {
		return nil, ErrNotSession
	}
	parent := make([]int32, len(s.Entries))
	for i := range parent {
		parent[i] = int32(i - 1)
	}
	s.SetParents(parent)
	s.leaf = len(s.Entries) - 1
	return s, nil
}
