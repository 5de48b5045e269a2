// Package droid reads, and only reads, Factory Droid's sessions:
// ~/.factory/sessions/<cwd with each "/" as ->/<sessionId>.jsonl (HOME
// moved by FACTORY_HOME_OVERRIDE), one JSON record a line: a
// session_start, then messages {id, parentId, timestamp, message: {role,
// content}} whose content is Anthropic Messages blocks, and bookkeeping
// records (agent_turn_outcome); beside it <sessionId>.settings.json, the
// session's model and token totals. FORMAT.md says what the records hold,
// where it was learned (the logs Droid 0.225.2 wrote in
// testdata/agentgen/droid) and what this package decided. Parse is pure;
// Open reads the files.
package droid

import (
	"bytes"
	"errors"

	"skein/internal/jscan"
	"skein/model"
)

// Format is the name of the format in the list and in --json.
const Format = "droid"

// Record types Droid writes (the "type" member).
const (
	TypeSessionStart = "session_start"
	TypeMessage      = "message"
	TypeTurnOutcome  = "agent_turn_outcome"
)

// ErrNotSession is Parse's error for bytes with no Droid record.
var ErrNotSession = errors.New("not a Factory Droid session: no session_start or message record")

// Entry is one line of the file: the members the tree, the list and the
// messages need, and the line as stored.
type Entry struct {
	Raw        []byte
	Line       int
	Type       string
	ID         string
	ParentID   string
	Timestamp  string
	Role       string // the message's role
	Content    []byte // the message's content array, nil when none
	Visibility string // "user_only": shown, never sent
	kind       model.EntryKind
	role       string
}

// Session is a parsed session: its entries in file order, what linking
// them found, and its settings file's model and usage.
type Session struct {
	model.Links
	Entries     []Entry
	Diagnostics []model.Diagnostic
	ID          string // session_start's id
	Title       string // session_start's title
	Cwd         string // session_start's cwd
	Model       string // the settings file's model
	Usage       *Tokens
	parent      []int32 // the tree's links (model.Links)
	leaf        int
	byID        map[string]int
	calls       map[string]string // tool_use id -> tool name
	path        string
}

// Tokens are a settings file's tokenUsage: the session's own totals over
// every request (Droid adds each response's usage to them).
type Tokens struct {
	Input, Output, CacheCreation, CacheRead, Thinking float64
}

// Parse reads a session alone, without its settings file.
func Parse(data []byte) (*Session, error) { return ParseFiles(data, nil) }

// ParseFiles reads a session's lines and its settings file (nil when
// none). Every line that is a JSON object with a type is an entry; a
// message record needs a string id. The data must stay unwritten while
// the session lives.
func ParseFiles(data, settings []byte) (*Session, error) {
	s := &Session{leaf: -1}
	data = bytes.TrimPrefix(data, jscan.BOM)
	mine := false
	for no, raw := range jscan.Lines(data) {
		if raw[0] != '{' || !jscan.Valid(raw) {
			s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: no, Msg: "not a JSON object: skipped"})
			continue
		}
		e := parseRecord(raw, no)
		if e.Type == "" || e.Type == TypeMessage && e.ID == "" {
			s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: no, Msg: "not a Droid record (no type, or a message without an id): skipped"})
			continue
		}
		switch e.Type {
		case TypeSessionStart:
			mine = true
			if s.ID == "" {
				s.ID, s.Title, s.Cwd = e.ID, jscan.StringMember(raw, "title"), jscan.StringMember(raw, "cwd")
			}
		case TypeMessage:
			mine = true
		}
		s.Entries = append(s.Entries, e)
	}
	if !mine {
		return nil, ErrNotSession
	}
	s.readSettings(settings)
	s.link()
	return s, nil
}

// readSettings reads the settings file's model and tokenUsage.
func (s *Session) readSettings(b []byte) {
	if len(b) == 0 || b[0] != '{' || !jscan.Valid(b) {
		return
	}
	s.Model = jscan.StringMember(b, "model")
	u := jscan.ObjectMember(b, "tokenUsage")
	if u == nil || u[0] != '{' {
		return
	}
	t := &Tokens{}
	jscan.Numbers(u, []string{"inputTokens", "outputTokens", "cacheCreationTokens", "cacheReadTokens", "thinkingTokens"},
		&t.Input, &t.Output, &t.CacheCreation, &t.CacheRead, &t.Thinking)
	s.Usage = t
}

// parseRecord reads a line's members.
func parseRecord(raw []byte, no int) Entry {
	e := Entry{Raw: raw, Line: no}
	jscan.Strings(raw, []string{"type", "id", "parentId", "timestamp"}, []*string{&e.Type, &e.ID, &e.ParentID, &e.Timestamp}, func(k string, v []byte) {
		if k == "message" && len(v) > 0 && v[0] == '{' {
			e.Role = jscan.StringMember(v, "role")
			if c := jscan.ObjectMember(v, "content"); len(c) > 0 && (c[0] == '[' || c[0] == '"') {
				e.Content = c
			}
			e.Visibility = jscan.StringMember(v, "visibility")
		}
	})
	return e
}

// Sniff reports whether head, the first bytes of a file, starts as a
// Droid session: its first line is a session_start record (Droid writes
// it first), or a message record of Droid's (IsRecord).
func Sniff(head []byte) bool {
	line, whole, ok := jscan.FirstLine(head)
	if !ok {
		return false
	}
	if !whole {
		return bytes.HasPrefix(line, []byte(`{"type":"session_start","id":"`))
	}
	return IsRecord(line)
}

// IsRecord reports whether line is a Droid record: a session_start with an
// id and a version, or a message with an id and a message object whose
// role is user or assistant and no member of Claude Code's (uuid).
func IsRecord(line []byte) bool {
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	var typ string
	var id, version, msg, uuid bool
	jscan.Fields(line, func(k, v []byte) bool {
		switch jscan.Key(k) {
		case "type":
			typ, _ = jscan.String(v)
		case "id":
			id = jscan.IsString(v)
		case "version":
			version = true
		case "uuid", "sessionId":
			uuid = true
		case "message":
			r := jscan.StringMember(v, "role")
			msg = r == "user" || r == "assistant"
		}
		return true
	})
	switch typ {
	case TypeSessionStart:
		return id && version && !uuid
	case TypeMessage:
		return id && msg && !uuid
	}
	return false
}
