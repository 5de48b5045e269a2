// Package claude reads, and only reads, Claude Code's session logs:
// ~/.claude/projects/<cwd with every non-alphanumeric as ->/<sessionId>.jsonl,
// one JSON object a line, and the sub-agent logs that belong to a session
// (agent-<agentId>.jsonl beside it, or in <sessionId>/subagents/). FORMAT.md
// says what the lines hold, where it was learned, and what this package
// decided where Claude Code's own reader is silent or does something else.
// Parse and ParseFiles are pure; Open reads the files.
package claude

import (
	"bytes"
	"errors"
	"runtime"

	"skein/internal/jscan"
	"skein/internal/par"
	"skein/model"
)

// Format is the name of the format in the list and in --json.
const Format = "claude"

// Line types Claude Code writes (the "type" member).
const (
	TypeUser        = "user"
	TypeAssistant   = "assistant"
	TypeSystem      = "system"
	TypeSummary     = "summary"
	TypeCustomTitle = "custom-title"
	TypeAITitle     = "ai-title"
	TypeAgentName   = "agent-name"

	SubtypeCompactBoundary = "compact_boundary"
)

// ErrNotSession is Parse's error for bytes with no line that is a JSON
// object.
var ErrNotSession = errors.New("not a Claude Code session: no line is a JSON object")

// Line flags.
const (
	flagSidechain uint16 = 1 << iota
	flagMeta
	flagCompactSummary
	flagVisibleOnly // isVisibleInTranscriptOnly: shown, not sent
	flagAPIError    // isApiErrorMessage
	flagMessageBad  // a user or assistant line whose message is not an object
	flagOther       // a user line's content holds more than tool results
	flagSkip        // a line left out (a uuid an earlier line has)
	flagCopied      // a fork's copy of its source's line: requestSessionId names another session
)

// line is one JSON line as parsed: the members the tree, the list and the
// merges need. The rest stays in raw, read when a message is asked for.
// The strings share the file's memory when they have no escapes (see str).
type line struct {
	raw       []byte
	no        int32 // 1-based line number in its file
	file      int32 // 0 the session's file, k > 0 the agent file k-1
	typ       string
	subtype   string
	uuid      string
	parent    string // parentUuid; "" for null or absent
	logical   string // logicalParentUuid (a compact boundary's)
	sessionID string
	ts        string
	cwd       string
	agentID   string
	msgID     string   // message.id
	results   []string // a user line's tool_result blocks: their tool_use_id
	resultAt  []result // and, for each, where its content is in raw
	flags     uint16
	badParent bool // parentUuid neither a string nor null
	// msgAt, msgEnd are where the message object is in raw, contentAt,
	// contentEnd where its content is (0, 0: none), found as the line is
	// parsed: reading them again by name scanned the whole line (the last
	// member of a name wins), past a tool result's copy of its output.
	msgAt, msgEnd, contentAt, contentEnd int32
}

// result is where a tool_result block's content is in its line (0, 0:
// none), and whether the block says it failed.
type result struct {
	at, end int32
	isError bool
}

// message is the line's message object, nil when it has none.
func (l *line) message() []byte {
	if l.msgEnd == 0 {
		return nil
	}
	return l.raw[l.msgAt:l.msgEnd]
}

// content is the line's message.content, nil when it has none.
func (l *line) content() []byte {
	if l.contentEnd == 0 {
		return nil
	}
	return l.raw[l.contentAt:l.contentEnd]
}

// span is where sub, a part of raw, is in it.
func span(raw, sub []byte) (at, end int32) {
	off := cap(raw) - cap(sub)
	return int32(off), int32(off + len(sub))
}

func (l *line) has(f uint16) bool { return l.flags&f != 0 }

// conversational reports whether the line is one of the turns of the
// conversation: a user or assistant line, or a compact boundary.
func (l *line) conversational() bool {
	return l.typ == TypeUser || l.typ == TypeAssistant || l.typ == TypeSystem && l.subtype == SubtypeCompactBoundary
}

// Strings read with jscan.StringShared share the line's memory. That is
// safe because Open reads every file into a buffer of its own, and Parse's
// caller hands its bytes over (Parse says so). TestValuesOutlive checks it.

// Sniff reports whether head, the first bytes of a file, looks like a
// Claude Code log: its first non-blank line is a JSON object that is one
// of Claude Code's own records (summary, file-history-snapshot,
// queue-operation, a title...), or a user, assistant or system line with a
// uuid or a sessionId, or any object with both. A line cut off by the end
// of head counts when it begins as Claude Code's lines begin.
func Sniff(head []byte) bool {
	ln, whole, ok := jscan.FirstLine(head)
	if !ok {
		return false
	}
	if !whole {
		for _, p := range sniffPrefixes {
			if bytes.HasPrefix(ln, []byte(p)) {
				return true
			}
		}
		return false
	}
	var rawType, uuid, session []byte
	if jscan.Raws(ln, []string{"type", "uuid", "sessionId"}, &rawType, &uuid, &session) != nil {
		return false
	}
	typ, _ := jscan.String(rawType)
	hasUUID, hasSession := jscan.IsString(uuid), jscan.IsString(session)
	return recordTypes[typ] || (hasUUID || hasSession) && chainTypes[typ] || hasUUID && hasSession
}

// recordTypes are the bookkeeping records a Claude Code log may start
// with, whose type names are its own; chainTypes are types other formats
// use too (a Dhara entry may be "system"), which count with a uuid or a
// sessionId.
var (
	recordTypes = map[string]bool{
		TypeSummary: true, "file-history-snapshot": true, "queue-operation": true, TypeCustomTitle: true,
		TypeAITitle: true, TypeAgentName: true, "last-prompt": true, "permission-mode": true, "pr-link": true,
	}
	chainTypes = map[string]bool{
		TypeUser: true, TypeAssistant: true, TypeSystem: true, "progress": true, "attachment": true, "mode": true,
	}
)

var sniffPrefixes = []string{
	`{"parentUuid":`, `{"type":"summary",`, `{"type":"file-history-snapshot",`,
	`{"type":"queue-operation",`, `{"type":"custom-title",`, `{"type":"ai-title",`,
}

// AgentFile is a sub-agent's log given to ParseFiles: Name is its path
// relative to the session's folder (what diagnostics name), Meta the
// agent-<id>.meta.json beside it (nil when there is none).
type AgentFile struct {
	Name string
	Data []byte
	Meta []byte
}

// Parse reads one log file's bytes: Claude Code's session file, or a
// sub-agent's file read alone. It keeps data: the caller must not write it
// afterwards. A line that is not a JSON object is skipped and reported in
// Diagnostics; every other line is kept. The error is ErrNotSession when
// no line is a JSON object.
func Parse(data []byte) (*Session, error) { return ParseFiles(data, nil) }

// ParseFiles reads a session's file and its sub-agents' files (see Parse).
// The agents' entries are the session's too, each agent's under the tool
// call that started it (FORMAT.md).
func ParseFiles(data []byte, agents []AgentFile) (*Session, error) {
	s := &Session{leaf: -1}
	files := make([][]byte, 0, 1+len(agents))
	files = append(files, data)
	for _, a := range agents {
		files = append(files, a.Data)
	}
	s.agentFiles = agents
	s.lines = parseFiles(files, func(file int) string {
		if file == 0 {
			return ""
		}
		return agents[file-1].Name
	}, &s.Diagnostics)
	mainLines := 0
	for i := range s.lines {
		if s.lines[i].file == 0 {
			mainLines++
		}
	}
	if mainLines == 0 {
		return nil, ErrNotSession
	}
	s.link()
	return s, nil
}

// parseFiles parses every file's lines, in parallel chunks when they are
// large, each chunk straight into its own region of one slice.
func parseFiles(files [][]byte, name func(int) string, diags *[]model.Diagnostic) []line {
	return par.ParseLines(files, runtime.GOMAXPROCS(0), func(p par.Part, out []line) (int, []model.Diagnostic) {
		return parseChunk(p, out, name(p.File))
	}, func(d []model.Diagnostic, _ int) { *diags = append(*diags, d...) })
}

var nl = []byte{'\n'}

// parseChunk parses the lines of p into out (a slot for each) and returns
// how many it filled.
func parseChunk(p par.Part, out []line, fileName string) (int, []model.Diagnostic) {
	var diags []model.Diagnostic
	n := 0
	for ln := range p.Lines() {
		l := &out[n]
		if err := parseLine(l, ln.Text); err != nil {
			*l = line{}
			msg := "JSON, but not an object"
			if err != jscan.ErrNotObject {
				msg = jscan.Malformed(err, ln.Last)
			}
			diags = append(diags, model.Diagnostic{File: fileName, Line: ln.No, Msg: msg + ": line skipped"})
			continue
		}
		l.no, l.file = int32(ln.No), int32(p.File)
		n++
	}
	return n, diags
}

// parseLine reads the members of a line that the session needs into l, in
// the one pass that validates it (and, for a user line, a walk of its
// content's blocks for their types and tool_use_ids).
func parseLine(l *line, raw []byte) error {
	l.raw = raw
	var content []byte
	var requestSession string
	hasMessage := false
	it := jscan.Object(raw)
	for k, v, mid, mcontent, ok := it.NextWith2("id", "content"); ok; k, v, mid, mcontent, ok = it.NextWith2("id", "content") {
		var dst *string
		switch it.Name(k) {
		case "type":
			dst = &l.typ
		case "subtype":
			dst = &l.subtype
		case "uuid":
			dst = &l.uuid
		case "parentUuid":
			l.parent, l.badParent = "", false
			if jscan.IsString(v) {
				dst = &l.parent
			} else if string(v) != "null" {
				l.badParent = true
			}
		case "logicalParentUuid":
			dst = &l.logical
		case "sessionId":
			dst = &l.sessionID
		case "timestamp":
			dst = &l.ts
		case "cwd":
			dst = &l.cwd
		case "agentId":
			dst = &l.agentID
		case "requestSessionId":
			dst = &requestSession
		case "isSidechain":
			l.flags = setFlag(l.flags, flagSidechain, v)
		case "isMeta":
			l.flags = setFlag(l.flags, flagMeta, v)
		case "isCompactSummary":
			l.flags = setFlag(l.flags, flagCompactSummary, v)
		case "isVisibleInTranscriptOnly":
			l.flags = setFlag(l.flags, flagVisibleOnly, v)
		case "isApiErrorMessage":
			l.flags = setFlag(l.flags, flagAPIError, v)
		case "message":
			hasMessage = true
			l.msgID, content = "", nil
			l.msgAt, l.msgEnd, l.contentAt, l.contentEnd = 0, 0, 0, 0
			l.flags &^= flagMessageBad
			if len(v) > 0 && v[0] == '{' {
				l.msgID, _ = jscan.StringShared(mid)
				content = mcontent
				l.msgAt, l.msgEnd = span(raw, v)
				if len(mcontent) > 0 {
					l.contentAt, l.contentEnd = span(raw, mcontent)
				}
			} else {
				l.flags |= flagMessageBad
			}
		}
		if dst != nil {
			*dst, _ = jscan.StringShared(v)
		}
	}
	if err := it.Err(); err != nil {
		return err
	}
	if (l.typ == TypeUser || l.typ == TypeAssistant) && !hasMessage {
		l.flags |= flagMessageBad
	}
	if requestSession != "" && requestSession != l.sessionID {
		l.flags |= flagCopied
	}
	if l.typ == TypeUser {
		switch {
		case len(content) > 0 && content[0] == '[':
			jscan.Items(content, func(b []byte) bool {
				typ, id, rc, isErr := blockInfo(b)
				if typ == "tool_result" {
					l.results = append(l.results, id)
					// Where its content is, and whether it failed: what
					// its message reads, without a walk of the block again.
					r := result{isError: isErr}
					if rc != nil {
						r.at, r.end = span(raw, rc)
					}
					l.resultAt = append(l.resultAt, r)
				} else {
					l.flags |= flagOther
				}
				return true
			})
		case content != nil:
			l.flags |= flagOther
		}
	}
	return nil
}

func setFlag(flags, f uint16, v []byte) uint16 {
	if string(v) == "true" {
		return flags | f
	}
	return flags &^ f
}

// blockInfo reads a content block's type, tool_use_id and content, and
// whether its is_error is true (the last of each, as JSON.parse keeps), in
// one walk.
func blockInfo(b []byte) (typ, id string, content []byte, isError bool) {
	if len(b) == 0 || b[0] != '{' {
		return "", "", nil, false
	}
	w := jscan.Walk(b)
	for k, ok := w.Next(); ok; k, ok = w.Next() {
		switch jscan.Key(k) {
		case "type":
			typ, _ = jscan.StringShared(w.Value())
		case "tool_use_id":
			id, _ = jscan.StringShared(w.Value())
		case "content":
			content = w.Value()
		case "is_error":
			isError = string(w.Value()) == "true"
		}
	}
	return typ, id, content, isError
}

// blockTypeID is a content block's type and tool_use_id (blockInfo).
func blockTypeID(b []byte) (typ, id string) {
	typ, id, _, _ = blockInfo(b)
	return typ, id
}

// stringOf is jscan.String: a JSON string's value, copied out of the line.
func stringOf(v []byte) (string, bool) { return jscan.String(v) }
