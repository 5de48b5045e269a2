// Package qwen reads, and only reads, Qwen Code's chat logs:
// $QWEN_HOME/projects/<cwd with every non-alphanumeric as ->/chats/<sessionId>.jsonl
// (~/.qwen when QWEN_HOME is not set; QWEN_RUNTIME_DIR moves them), one
// JSON record a line, linked by uuid and parentUuid as Claude Code's are,
// whose messages are Gemini API Contents ({role, parts}). FORMAT.md says
// what the records hold, where it was learned (Qwen Code 0.24.4's own
// reader and the logs it wrote in testdata/agentgen/qwen), and what this
// package decided. Parse is pure; Open reads the file.
package qwen

import (
	"bytes"
	"errors"
	"strconv"

	"skein/internal/jscan"
	"skein/model"
)

// Format is the name of the format in the list and in --json.
const Format = "qwen"

// Record types Qwen Code writes (the "type" member; ChatRecord.type).
const (
	TypeUser       = "user"
	TypeAssistant  = "assistant"
	TypeToolResult = "tool_result"
	TypeSystem     = "system"
)

// System subtypes skein reads.
const (
	SubtypeCompression = "chat_compression"
	SubtypeTelemetry   = "ui_telemetry"
	SubtypeTitle       = "custom_title"
	SubtypeRewind      = "rewind"
	SubtypeSlash       = "slash_command"
	SubtypeModel       = "session_model"
)

// ErrNotSession is Parse's error for bytes with no Qwen Code record.
var ErrNotSession = errors.New("not a Qwen Code chat: no record with a uuid, a sessionId and a type of Qwen Code's")

// Entry is one line of the file: the members the tree, the list and the
// messages need, and the line as stored. A line that is not a JSON object
// is no entry (a diagnostic says so).
type Entry struct {
	Raw        []byte
	Line       int
	UUID       string
	ParentUUID string
	HasParent  bool // parentUuid is a string
	SessionID  string
	Timestamp  string
	Type       string // user, assistant, tool_result, system
	Subtype    string
	Model      string
	Cwd        string
	Message    []byte // the message object, nil when none
	Payload    []byte // systemPayload, nil when none
	File       int    // 0 the chat, k the sub-agent k-1's transcript
	// fragment is the entry a repeated uuid adds its parts to, -1 when the
	// entry is the first with its uuid.
	fragment int
	kind     model.EntryKind
	role     string
}

// Session is a parsed chat: its entries in file order and what linking
// them found.
type Session struct {
	model.Links
	Entries     []Entry
	Diagnostics []model.Diagnostic
	ID          string // the first record's sessionId
	Agents      []Agent
	main        int     // the chat's entries are Entries[:main]
	parent      []int32 // the tree's links (model.Links)
	fragments   bool    // some uuid is repeated
	leaf        int
	byUUID      map[string]int  // the chat's uuids
	calls       map[string]call // tool call id -> where it is
	title       string
	path        string
}

// call is a tool call's assistant entry and its function call part.
type call struct {
	entry int
	name  string
}

// AgentFile is a sub-agent's transcript read beside its session:
// subagents/<sessionId>/agent-<agentId>.jsonl in the project's folder,
// its name (relative to the session's file, for a diagnostic), its bytes,
// and its .meta.json (toolUseId: the call that started it), nil when none.
type AgentFile struct {
	Name string
	Data []byte
	Meta []byte
}

// Agent is a sub-agent of the session: its file, its id and type, and the
// entry of the call that started it (-1 when not found).
type Agent struct {
	Name, ID, Type, CallID string
	Call                   int
}

// Parse reads a chat alone (ParseFiles with no sub-agents).
func Parse(data []byte) (*Session, error) { return ParseFiles(data, nil) }

// ParseFiles reads a chat as Qwen Code's reader does (jsonl read: every
// line that parses as JSON; prepareTranscriptRecords: a record without a
// string uuid, a sessionId or a parentUuid that is a string or null is
// skipped, and so is one of a type it does not know), and its sub-agents'
// transcripts after it. Each line is an entry; a line that repeats an
// earlier line's uuid in its file is a fragment of it (its parts are the
// earlier's too). A sub-agent's entries hang under the call that started
// it. The data must stay unwritten while the session lives. The error is
// ErrNotSession when no line of the chat is Qwen Code's.
func ParseFiles(data []byte, agents []AgentFile) (*Session, error) {
	s := &Session{leaf: -1}
	s.parseFile(data, 0)
	if len(s.Entries) == 0 {
		return nil, ErrNotSession
	}
	s.main = len(s.Entries)
	for k, a := range agents {
		before := len(s.Diagnostics)
		at := len(s.Entries)
		s.parseFile(a.Data, k+1)
		for d := before; d < len(s.Diagnostics); d++ {
			s.Diagnostics[d].File = a.Name
		}
		ag := Agent{Name: a.Name, Call: -1, CallID: jscan.StringMember(a.Meta, "toolUseId"), Type: jscan.StringMember(a.Meta, "agentType"), ID: jscan.StringMember(a.Meta, "agentId")}
		if ag.ID == "" && at < len(s.Entries) {
			ag.ID = jscan.StringMember(s.Entries[at].Raw, "agentId")
		}
		s.Agents = append(s.Agents, ag)
	}
	s.ID = s.Entries[0].SessionID
	s.link()
	return s, nil
}

// parseFile reads one file's lines into entries of file (0 the chat, k
// the sub-agent k-1).
func (s *Session) parseFile(data []byte, file int) {
	data = bytes.TrimPrefix(data, jscan.BOM)
	for no, raw := range jscan.Lines(data) {
		if raw[0] != '{' || !jscan.Valid(raw) {
			s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: no, Msg: "not a JSON object: skipped"})
			continue
		}
		e, ok := parseRecord(raw, no)
		if !ok {
			s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: no, Msg: "not a Qwen Code record (no uuid, sessionId or known type): skipped"})
			continue
		}
		e.File = file
		s.Entries = append(s.Entries, e)
	}
}

// parseRecord reads a line's members; false when it is no record Qwen
// Code's reader keeps.
func parseRecord(raw []byte, no int) (Entry, bool) {
	e := Entry{Raw: raw, Line: no, fragment: -1}
	parentOK := false
	jscan.Strings(raw, []string{"uuid", "sessionId", "timestamp", "type", "subtype", "model", "cwd"},
		[]*string{&e.UUID, &e.SessionID, &e.Timestamp, &e.Type, &e.Subtype, &e.Model, &e.Cwd}, func(k string, v []byte) {
			switch k {
			case "parentUuid":
				if string(v) == "null" {
					parentOK = true
				} else if p, ok := jscan.String(v); ok {
					e.ParentUUID, e.HasParent, parentOK = p, true, true
				}
			case "message":
				if len(v) > 0 && v[0] == '{' {
					e.Message = v
				}
			case "systemPayload":
				if len(v) > 0 && v[0] == '{' {
					e.Payload = v
				}
			}
		})
	switch e.Type {
	case TypeUser, TypeAssistant, TypeToolResult, TypeSystem:
	default:
		return e, false
	}
	return e, e.UUID != "" && e.SessionID != "" && parentOK
}

// Sniff reports whether head, the first bytes of a file, starts as a Qwen
// Code chat: its first line is a record with a uuid, a sessionId and a
// type of Qwen Code's, and something only Qwen Code writes (a message of
// parts, a systemPayload, a provenance). A line cut off by the end of head
// counts when it begins as Qwen Code writes one.
func Sniff(head []byte) bool {
	line, whole, ok := jscan.FirstLine(head)
	if !ok {
		return false
	}
	if !whole {
		return bytes.HasPrefix(line, []byte(`{"uuid":"`)) && bytes.Contains(line, []byte(`"parentUuid":`)) &&
			(bytes.Contains(line, []byte(`"provenance":"`)) || bytes.Contains(line, []byte(`"parts":[`)))
	}
	return IsRecord(line)
}

// IsRecord reports whether line is a Qwen Code record: a uuid, a
// sessionId, one of its four types, and a mark of its own: a provenance
// (0.24), a systemPayload, or a message whose content is parts.
func IsRecord(line []byte) bool {
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	var uuid, sid, typ, mine bool
	jscan.Fields(line, func(k, v []byte) bool {
		switch jscan.Key(k) {
		case "uuid":
			uuid = jscan.IsString(v)
		case "sessionId":
			sid = jscan.IsString(v)
		case "type":
			t, _ := jscan.String(v)
			typ = t == TypeUser || t == TypeAssistant || t == TypeToolResult || t == TypeSystem
		case "provenance", "systemPayload":
			mine = true
		case "message":
			if len(v) > 0 && v[0] == '{' && jscan.Member(v, "parts") != nil {
				mine = true
			}
		}
		return true
	})
	return uuid && sid && typ && mine
}

// ID is entry i's id: its uuid, with the line for a fragment (a uuid
// repeated), so that every entry has an id of its own.
func (e *Entry) ID() string {
	if e.fragment >= 0 {
		return e.UUID + "#L" + strconv.Itoa(e.Line)
	}
	return e.UUID
}
