// Package dhara05 reads, and only reads, the session files of the real
// Dhara agent (zosmaai/dhara 0.5): one JSONL file per session,
// ~/.dhara/sessions/<sessionId>.jsonl, whose lines are a meta line and the
// session's entries and branch markers in the order they were made. Dhara
// rewrites the whole file on every append (a temporary file renamed over it),
// so skein never writes one. UPSTREAM.md names the upstream source each rule
// here follows. Parse is pure; Open reads a file.
package dhara05

import (
	"bytes"
	"errors"
	"fmt"
	"sync"

	"skein/internal/jscan"
	"skein/model"
)

// Format is the name of the format in the list and in --json.
const Format = "dhara-0.5"

// Line types and the roles Dhara writes (session.ts: SessionEntry.role).
const (
	TypeMeta   = "meta"
	TypeEntry  = "entry"
	TypeBranch = "branch"

	RoleSystem     = "system"
	RoleUser       = "user"
	RoleAssistant  = "assistant"
	RoleToolResult = "tool_result"
)

// ErrNotSession is Parse's error for bytes that hold neither a meta line
// nor an entry or branch line.
var ErrNotSession = errors.New("not a Dhara 0.5 session: no meta line and no entries")

// Meta is the meta line (session.ts: SessionMeta).
type Meta struct {
	FormatVersion, SessionID, CreatedAt, UpdatedAt, Cwd string
	// Model is meta.model: the model the agent sends every request with
	// (agent-loop.ts: session.meta.model).
	ModelID, Provider string
	ThinkingLevel     []byte // meta.model.thinkingLevel as JSON, nil when absent
	Tags              []string
	// Title is a "title" (or else "name") string member: Dhara 0.5 writes
	// none, a later version or another writer may.
	Title string
	Raw   []byte // the line, nil when the file has no meta line
	Line  int
}

// Entry is one entry or branch line. Only what the tree, the list and the
// context need is decoded; the rest stays in Raw.
type Entry struct {
	Type     string // "entry", "branch", or what an unknown line says ("" for none)
	ID       string
	ParentID string // as written; "" for null or absent
	// Role is the role as Dhara writes it ("tool_result"); Entry gives the
	// model's ("toolResult").
	Role       string
	Timestamp  string
	ToolCallID string // a tool_result's call
	ToolName   string // a tool_result's tool
	Label      string // a branch marker's label
	HasLabel   bool
	Reason     string // a branch marker's reason
	Raw        []byte // the line, without its line ending and surrounding blanks
	Line       int    // 1-based
	kind       model.EntryKind
	role       string // the model's role; "" when not a message
}

// Session is a parsed Dhara 0.5 session file: a model.Source.
type Session struct {
	Meta Meta
	model.EntryTree[Entry, *Entry]
	// Diagnostics are what reading found: lines skipped, ids repeated,
	// parents missing, cycles cut.
	Diagnostics []model.Diagnostic

	byID   map[string]int
	parent []int32
	leaf   int

	namesOnce sync.Once
	callNames map[string]string // tool call id -> tool name, from the assistants' toolCalls
}

// Sniff reports whether head, the first bytes of a file, starts with a Dhara
// 0.5 meta line: its first non-blank line is a JSON object whose type is
// "meta". A line cut off by the end of head counts when it begins as Dhara
// writes a meta line (JSON.stringify({type: "meta", ...meta})).
func Sniff(head []byte) bool {
	line, whole, ok := jscan.FirstLine(head)
	if !ok {
		return false
	}
	if !whole {
		return bytes.HasPrefix(line, []byte(`{"type":"meta",`))
	}
	typ, ok := lineType(line)
	return ok && typ == TypeMeta
}

// lineType is the "type" string of a line that is a JSON object.
func lineType(line []byte) (string, bool) {
	typ := ""
	it := jscan.Object(line)
	for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
		if it.Name(k) == "type" {
			typ, _ = jscan.String(v)
		}
	}
	return typ, it.Err() == nil
}

// IsSessionFileName reports whether Dhara lists a file of this name as a
// session (session-manager.ts list: a .jsonl name not starting with a dot,
// which leaves out the .tmp-<id>.jsonl a save is renaming).
func IsSessionFileName(name string) bool {
	return len(name) > len(".jsonl") && name[0] != '.' && name[len(name)-len(".jsonl"):] == ".jsonl"
}

// Parse reads a session file's bytes as Dhara's Session.import does
// (session.ts importSession): lines split at "\n", blank ones skipped; a
// meta line sets the meta (the last one wins); every other line is an entry
// kept by id in the order its id first came, a later line with the same id
// replacing it; the head is the last line's entry. Where Dhara's import
// throws (a line that is not JSON) or loops (a cycle of parentIds), Parse
// skips the line or cuts the cycle and says so in Diagnostics. A BOM, CRLF
// line ends and a partial last line are tolerated. The error is
// ErrNotSession when nothing in data is a Dhara line.
func Parse(data []byte) (*Session, error) {
	s := &Session{leaf: -1}
	data = bytes.TrimPrefix(data, jscan.BOM)
	diag := func(line int, warn bool, format string, args ...any) {
		s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: line, Msg: fmt.Sprintf(format, args...), Warning: warn})
	}
	s.byID = map[string]int{}
	found := false // a meta, entry or branch line
	firstLine := true
	lastID := ""
	for lineNo := 1; len(data) > 0; lineNo++ {
		line, rest, terminated := bytes.Cut(data, []byte{'\n'})
		data = rest
		line = jscan.TrimBlank(line)
		if len(line) == 0 {
			continue
		}
		isFirst := firstLine
		firstLine = false
		e, meta, err := parseLine(line)
		if err != nil {
			msg := "not a JSON object"
			if err != jscan.ErrNotObject {
				msg = jscan.Malformed(err, !terminated)
			}
			diag(lineNo, false, "%s: line skipped (Dhara's load throws on it)", msg)
			continue
		}
		if meta != nil {
			found = true
			meta.Line = lineNo
			if s.Meta.Raw != nil {
				diag(lineNo, true, "another meta line: it replaces line %d's (Dhara applies every meta line, the last wins)", s.Meta.Line)
			} else if !isFirst {
				diag(lineNo, true, "the meta line is not the first line")
			}
			s.Meta = *meta
			continue
		}
		if e.Type == TypeEntry || e.Type == TypeBranch {
			found = true
		}
		if e.ID == "" {
			diag(lineNo, false, "%s has no id (Dhara would key it by undefined): line skipped", typeName(e.Type))
			continue
		}
		e.Line = lineNo
		lastID = e.ID
		if j, ok := s.byID[e.ID]; ok {
			diag(lineNo, true, "id %q repeats line %d's: this line replaces it, in its place (Dhara keeps entries in a Map)", e.ID, s.Entries[j].Line)
			s.Entries[j] = e
			continue
		}
		s.byID[e.ID] = len(s.Entries)
		s.Entries = append(s.Entries, e)
	}
	if !found {
		return nil, ErrNotSession
	}
	if s.Meta.Raw == nil {
		diag(0, true, "no meta line: the session has no id, cwd or model of its own")
	}
	if lastID != "" {
		s.leaf = s.byID[lastID]
	}
	s.link()
	return s, nil
}

func typeName(t string) string {
	if t == "" {
		return "a line with no type"
	}
	return fmt.Sprintf("a line of type %q", t)
}

// parseLine reads a line: a meta line's members, or an entry's.
func parseLine(line []byte) (Entry, *Meta, error) {
	e := Entry{Raw: line}
	var parent, modelRaw, title, name, tags []byte
	var m Meta
	it := jscan.Object(line)
	for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
		var dst *string
		switch it.Name(k) {
		case "type":
			dst = &e.Type
		case "id":
			dst = &e.ID
		case "parentId":
			parent = v
			continue
		case "role":
			dst = &e.Role
		case "timestamp":
			dst = &e.Timestamp
		case "toolCallId":
			dst = &e.ToolCallID
		case "toolName":
			dst = &e.ToolName
		case "label":
			e.HasLabel = jscan.IsString(v)
			dst = &e.Label
		case "reason":
			dst = &e.Reason
		case "formatVersion":
			dst = &m.FormatVersion
		case "sessionId":
			dst = &m.SessionID
		case "createdAt":
			dst = &m.CreatedAt
		case "updatedAt":
			dst = &m.UpdatedAt
		case "cwd":
			dst = &m.Cwd
		case "model":
			modelRaw = v
			continue
		case "tags":
			tags = v
			continue
		case "title":
			title = v
			continue
		case "name":
			name = v
			continue
		default:
			continue
		}
		*dst, _ = jscan.String(v)
	}
	if err := it.Err(); err != nil {
		return e, nil, err
	}
	if e.Type == TypeMeta {
		m.Raw = line
		if len(modelRaw) > 0 && modelRaw[0] == '{' {
			m.ModelID, _ = jscan.String(jscan.Member(modelRaw, "id"))
			m.Provider, _ = jscan.String(jscan.Member(modelRaw, "provider"))
			if t := jscan.Member(modelRaw, "thinkingLevel"); t != nil && string(t) != "null" {
				m.ThinkingLevel = t
			}
		}
		_ = jscan.Elements(arrayOrNil(tags), func(v []byte) bool {
			if t, ok := jscan.String(v); ok {
				m.Tags = append(m.Tags, t)
			}
			return true
		})
		var ok bool
		if m.Title, ok = jscan.String(title); !ok {
			m.Title, _ = jscan.String(name)
		}
		return e, &m, nil
	}
	if p, ok := jscan.String(parent); ok {
		e.ParentID = p
	} else if parent != nil && string(parent) != "null" {
		e.ParentID = "\x00" + string(parent) // not a string: resolved as missing (link)
	}
	switch e.Type {
	case TypeEntry:
		switch e.Role {
		case RoleSystem:
			e.kind, e.role = model.EntryMessage, model.RoleSystem
		case RoleUser:
			e.kind, e.role = model.EntryMessage, model.RoleUser
		case RoleAssistant:
			e.kind, e.role = model.EntryMessage, model.RoleAssistant
		case RoleToolResult:
			e.kind, e.role = model.EntryMessage, model.RoleToolResult
		}
	}
	return e, nil, nil
}

func arrayOrNil(v []byte) []byte {
	if len(v) > 0 && v[0] == '[' {
		return v
	}
	return []byte("[]")
}

// link resolves the parents: a parentId not in the file, or not a string,
// makes a root (Dhara's getPath stops there); a cycle, on which Dhara's
// getPath would loop forever, is cut where the walk from the earliest entry
// in it closes it.
func (s *Session) link() {
	n := len(s.Entries)
	s.parent = make([]int32, n)
	s.SetParents(s.parent)
	for i := range s.Entries {
		e := &s.Entries[i]
		s.parent[i] = -1
		switch {
		case e.ParentID == "":
		case e.ParentID[0] == 0:
			s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: e.Line,
				Msg: fmt.Sprintf("parentId %s is not a string: a root here", e.ParentID[1:])})
			e.ParentID = ""
		default:
			if j, ok := s.byID[e.ParentID]; ok {
				s.parent[i] = int32(j)
			} else {
				s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: e.Line,
					Msg: fmt.Sprintf("parent %q is not in the file: a root here (Dhara's path stops at it)", e.ParentID)})
			}
		}
	}
	model.BreakCycles(s.parent, false, func(k, _ int) {
		s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: s.Entries[k].Line,
			Msg: fmt.Sprintf("parent %q makes a cycle (Dhara's getPath would never end): a root here", s.Entries[k].ParentID)})
	})
}
