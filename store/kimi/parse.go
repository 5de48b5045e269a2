// Package kimi reads, and only reads, Kimi Code's session logs:
// $KIMI_CODE_HOME/sessions/wd_<dir>_<hash>/session_<uuid>/agents/<agent>/wire.jsonl
// (~/.kimi-code when KIMI_CODE_HOME is not set), one JSON record a line:
// the agent's wire of context changes (context.append_message,
// context.append_loop_event with step.begin, content.part, tool.call,
// tool.result and step.end, context.apply_compaction, context.undo,
// context.clear), usage records and bookkeeping. FORMAT.md says what the
// records hold, where it was learned (Kimi Code 2.1.0's bundled source and
// the logs it wrote in testdata/agentgen/kimi), and what this package
// decided. Parse is pure; Open reads the files.
package kimi

import (
	"errors"

	"skein/internal/jscan"
	"skein/model"
)

// Format is the name of the format in the list and in --json.
const Format = "kimi"

// ErrNotSession is Parse's error for bytes with no Kimi Code wire record.
var ErrNotSession = errors.New("not a Kimi Code wire file: no record with a type of Kimi Code's wire")

// Record types skein reads (the "type" member).
const (
	TypeMetadata   = "metadata"
	TypeAppendMsg  = "context.append_message"
	TypeLoopEvent  = "context.append_loop_event"
	TypeCompaction = "context.apply_compaction"
	TypeUndo       = "context.undo"
	TypeClear      = "context.clear"
	TypeUsage      = "usage.record"
	TypeRequest    = "llm.request"
	TypeProfile    = "profile.bind"
	TypePrompt     = "turn.prompt"
	TypeSpawned    = "subagent.spawned"
)

// Entry is one line of a wire file: the members the messages need and the
// line as stored. File is the agent ("main", "agent-0"...) whose wire
// holds it.
type Entry struct {
	Raw   []byte
	Line  int
	Agent string
	Type  string
	Event string // a loop event's type
	Time  float64
	// Step is a step.begin's uuid, or the step a content.part or tool.call
	// belongs to (stepUuid).
	Step   string
	CallID string // a tool.call's or tool.result's toolCallId
	Model  string // the model of the request a usage record or step is for
	kind   model.EntryKind
	role   string
}

// AgentFile is a sub-agent's wire file: its agent id and its bytes.
type AgentFile struct {
	Agent string
	Data  []byte
}

// Session is a parsed session: the main agent's entries, then each
// sub-agent's after the call that started it.
type Session struct {
	model.Links
	Entries     []Entry
	Diagnostics []model.Diagnostic
	ID          string
	cwd         string
	path        string
	parent      []int32 // the tree's links (model.Links): each entry's parent is before it
	leaf        int
	// steps: a step.begin's index to the step.end's, for its usage.
	stepEnd map[int]int
}

// Sniff reports whether a file's first line is a Kimi Code wire record:
// its metadata line with a protocol_version.
func Sniff(head []byte) bool {
	line, _, ok := jscan.FirstLine(head)
	return ok && IsRecord(line)
}

// IsRecord: a metadata record with a protocol_version and a created_at
// (the legacy Kimi CLI's metadata line has no created_at: store/kimicli
// reads those), or a record whose type is one of the wire's context
// records with an agentId.
func IsRecord(line []byte) bool {
	line = jscan.TrimBlank(line)
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	switch jscan.StringMember(line, "type") {
	case TypeMetadata:
		return jscan.ObjectMember(line, "protocol_version") != nil && jscan.ObjectMember(line, "created_at") != nil
	case TypeAppendMsg, TypeLoopEvent, TypeCompaction, TypeUndo, TypeProfile, TypePrompt:
		return jscan.ObjectMember(line, "agentId") != nil
	}
	return false
}

// Parse reads the main agent's wire file alone.
func Parse(data []byte) (*Session, error) { return ParseFiles(data, nil) }

// ParseFiles reads the main agent's wire and its sub-agents' wires. Each
// sub-agent's entries follow the main agent's, its first entry a child of
// the tool call that spawned it (subagent.spawned's parentToolCallId),
// so that it hangs under that call in the tree.
func ParseFiles(data []byte, agents []AgentFile) (*Session, error) {
	s := &Session{leaf: -1, stepEnd: map[int]int{}}
	s.read(data, "main", "")
	if len(s.Entries) == 0 {
		return nil, ErrNotSession
	}
	s.parent = make([]int32, len(s.Entries))
	for i := range s.parent {
		s.parent[i] = int32(i - 1)
	}
	s.leaf = len(s.Entries) - 1
	spawnAt := map[string]int{} // sub-agent id to the index of its tool.call
	calls := map[string]int{}
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Event == "tool.call" {
			calls[e.CallID] = i
		}
		if e.Type == TypeSpawned {
			if c, ok := calls[jscan.StringMember(e.Raw, "parentToolCallId")]; ok {
				spawnAt[jscan.StringMember(e.Raw, "subagentId")] = c
			}
		}
	}
	for _, a := range agents {
		start := len(s.Entries)
		s.read(a.Data, a.Agent, a.Agent)
		for i := start; i < len(s.Entries); i++ {
			p := i - 1
			if i == start {
				p = -1
				if c, ok := spawnAt[a.Agent]; ok {
					p = c
				}
			}
			s.parent = append(s.parent, int32(p))
		}
	}
	s.SetParents(s.parent)
	s.link()
	return s, nil
}

// read appends a wire file's records as entries. file names the file in
// diagnostics ("" for the main agent's).
func (s *Session) read(data []byte, agent, file string) {
	current := "" // the model of the last llm.request
	for line, raw := range jscan.Lines(data) {
		if raw[0] != '{' || !jscan.Valid(raw) {
			s.Diagnostics = append(s.Diagnostics, diag(file, line, "not a JSON object: left out"))
			continue
		}
		e := Entry{Raw: raw, Line: line, Agent: agent, Type: jscan.StringMember(raw, "type"), kind: model.EntryOther}
		e.Time, _ = jscan.Number(jscan.ObjectMember(raw, "time"))
		switch e.Type {
		case TypeMetadata:
			e.Time, _ = jscan.Number(jscan.ObjectMember(raw, "created_at"))
		case TypeRequest:
			current = jscan.StringMember(raw, "model")
		case TypeUsage:
			e.Model = current
			e.kind = model.EntryUsage
		case TypeProfile:
			if c := jscan.StringMember(jscan.ObjectMember(raw, "environmentDisclosure"), "cwd"); c != "" && s.cwd == "" && agent == "main" {
				s.cwd = c
			}
		case TypeAppendMsg:
			e.kind, e.role = model.EntryMessage, roleOf(jscan.StringMember(jscan.ObjectMember(raw, "message"), "role"))
		case TypeCompaction:
			e.kind, e.role = model.EntryCompaction, model.RoleCompactionSummary
		case TypeLoopEvent:
			ev := jscan.ObjectMember(raw, "event")
			e.Event = jscan.StringMember(ev, "type")
			switch e.Event {
			case "step.begin":
				e.Step, e.Model = jscan.StringMember(ev, "uuid"), current
				e.kind, e.role = model.EntryMessage, model.RoleAssistant
			case "content.part", "tool.call":
				e.Step, e.CallID = jscan.StringMember(ev, "stepUuid"), jscan.StringMember(ev, "toolCallId")
			case "tool.result":
				e.CallID = jscan.StringMember(ev, "toolCallId")
				e.kind, e.role = model.EntryMessage, model.RoleToolResult
			case "step.end":
				e.Step = jscan.StringMember(ev, "uuid")
			}
		}
		if e.Type == "" {
			s.Diagnostics = append(s.Diagnostics, diag(file, line, "a record with no type: kept as data"))
		}
		s.Entries = append(s.Entries, e)
	}
}

// link pairs each step.begin with its step.end, within an agent.
func (s *Session) link() {
	open := map[string]int{}
	for i := range s.Entries {
		e := &s.Entries[i]
		switch e.Event {
		case "step.begin":
			open[e.Agent+"\x00"+e.Step] = i
		case "step.end":
			if b, ok := open[e.Agent+"\x00"+e.Step]; ok {
				s.stepEnd[b] = i
			}
		}
	}
}

func diag(file string, line int, msg string) model.Diagnostic {
	return model.Diagnostic{File: file, Line: line, Warning: true, Msg: msg}
}

// roleOf is a wire message's role in the domain's terms.
func roleOf(r string) string {
	switch r {
	case "assistant":
		return model.RoleAssistant
	case "tool":
		return model.RoleToolResult
	case "system":
		return model.RoleSystem
	}
	return model.RoleUser
}
