// Package codex reads, and only reads, the rollout files of the Codex CLI
// (openai/codex): one JSONL file per session,
// $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl, whose lines
// are {timestamp, type, payload} records (RolloutLine) of type
// session_meta, response_item, event_msg, turn_context or compacted; older
// files have no envelope: a header {id, timestamp, ...} and the bare
// response items. Codex appends to the file while it runs, and again when a
// session is resumed; skein never writes one. UPSTREAM.md names the upstream
// source each rule here follows and what skein decided where upstream is
// silent. Parse is pure; Open reads a file.
//
// Codex lines have no ids: an entry's id is "L" and its 1-based line number
// ("L12"), stable while the file grows (lines are only appended).
package codex

import (
	"bytes"
	"errors"
	"runtime"
	"strconv"
	"sync"

	"skein/internal/jscan"
	"skein/internal/par"
	"skein/model"
)

// Format is the name of the format in the list and in --json.
const Format = "codex"

// Line types (protocol.rs RolloutItem, serde tag "type", content "payload").
const (
	TypeSessionMeta  = "session_meta"
	TypeResponseItem = "response_item"
	TypeEventMsg     = "event_msg"
	TypeTurnContext  = "turn_context"
	TypeCompacted    = "compacted"
	// TypeTokenUsageRecord (0.171.0) is one completed response's usage:
	// one line per response, compaction requests included.
	TypeTokenUsageRecord = "token_usage_record"
)

// ErrNotSession is Parse's error for bytes with no Codex line in them.
var ErrNotSession = errors.New("not a Codex rollout: no session_meta, response item, event or turn context line")

// Entry is one line of the rollout. Only what the tree, the list and the
// context need is decoded; the rest stays in Raw. The strings share the
// file's memory when they have no escapes (see str).
type Entry struct {
	// Type is the line's rollout type. A line without the envelope is
	// "response_item" for a bare item, "session_meta" for the old header
	// {id, timestamp}, and "" for anything else ({"record_type":"state"}).
	Type string
	// ItemType is the payload's "type": a response item's ("message",
	// "function_call", ...) or an event's ("token_count"); "" for none.
	ItemType  string
	Role      string // a message's role, as written
	CallID    string // a call's or an output's call_id
	Name      string // a call's tool name
	Timestamp string // the envelope's; "" for a bare line
	Bare      bool   // the line has no envelope
	Raw       []byte // the line, without its line ending
	// Payload is the envelope's payload, or the whole line when bare.
	Payload []byte
	Line    int // 1-based
	kind    model.EntryKind
	role    string // the model's role; "" when not a message
	typ     string // the domain's Type (see Entry)
}

// ID is the entry's synthesized id: "L" and its line number.
func (e *Entry) ID() string { return "L" + strconv.Itoa(e.Line) }

// Meta is the first session_meta line (SessionMetaLine: SessionMeta and
// git), or an old file's header.
type Meta struct {
	ID, Timestamp, Cwd, Originator, CLIVersion string
	// Instructions are "instructions" (the user instructions 0.x wrote), or
	// else base_instructions.text.
	Instructions string
	// BaseInstructions are base_instructions.text (0.171.0 and later): the
	// system prompt, which Codex sends as the history's first message.
	BaseInstructions string
	Source           string // "cli", "exec", "vscode", ... ("" when not a string)
	ModelProvider    string // model_provider
	ForkedFromID     string // forked_from_id: the session this one was forked from
	// ForkedFromOrdinal is forked_from_ordinal_exclusive (0.171.0): the
	// fork's history starts with its source's lines below that ordinal,
	// which its file does not copy; -1 when absent.
	ForkedFromOrdinal int
	Raw               []byte // the payload (or the header line), nil when none
	Line              int
}

// Session is a parsed rollout: a model.Source.
type Session struct {
	Meta Meta
	model.EntryTree[Entry, *Entry]
	// Diagnostics are what reading found: lines skipped, outputs without a
	// call, a file without a session_meta line.
	Diagnostics []model.Diagnostic

	parent []int32
	leaf   int
	// inForce is, for each entry, the turn_context entry in force there
	// (-1: none yet); tcModel is each turn_context's model.
	inForce []int32
	tcModel map[int32]string
	// calls are the call entries by call_id (the first of each id);
	// counts are the token_count events, in file order; usage is, for an
	// assistant entry, the count (its index) that follows it.
	calls  map[string]int32
	counts []count
	usage  map[int32]int32
	// records is whether the file has token_usage_record lines, whose
	// usage the stats add up rather than the counts' running totals.
	records bool
	// keep is, for a thread_rolled_back entry whose cut falls inside what
	// its parent's replay gives, how many context messages it keeps.
	keep map[int32]int32
	// tokensBefore is, for a compacted entry, the context's size in tokens
	// at the last token count before it.
	tokensBefore map[int32]float64
	title        string
	metaTime     string // the session_meta line's own timestamp

	// compacted caches each compaction's history: a compaction's path is
	// fixed, so what it keeps is too.
	compMu    sync.Mutex
	compCache map[int32][]elem

	// path is the file Open read ("" for Parse's bytes); fork is, for a
	// fork that copies nothing (Meta.ForkedFromOrdinal), the items its
	// source's history gives, read from the source's file on first use.
	path     string
	forkOnce sync.Once
	fork     [][]byte
}

// Strings read with jscan.StringShared share the line's memory. That is
// safe because Open reads every file into a buffer of its own, and Parse's
// caller must give it one such (Parse keeps the bytes): an mmapped file
// must not be parsed. TestValuesOutliveSession checks it.

// Parse reads a rollout's bytes as Codex's resume does
// (RolloutRecorder::get_rollout_history): lines split at "\n", blank ones
// skipped, a line that is not JSON skipped (reported here); each line an
// entry in file order. Lines without the envelope are read too (Codex's
// resume skips them; its older versions wrote them). The entries are one
// chain, except that a thread rollback starts a branch where the turns it
// dropped began (see link). data must stay unwritten while the session
// lives (see str). The error is ErrNotSession when no line is Codex's.
func Parse(data []byte) (*Session, error) {
	s := &Session{leaf: -1}
	data = bytes.TrimPrefix(data, jscan.BOM)
	s.Entries, s.counts = parseLines(data, &s.Diagnostics)
	found := false
	for i := range s.Entries {
		if s.Entries[i].known() {
			found = true
			break
		}
	}
	if !found {
		return nil, ErrNotSession
	}
	s.link()
	return s, nil
}

// known reports whether the line is one Codex writes.
func (e *Entry) known() bool {
	switch e.Type {
	case TypeSessionMeta, TypeEventMsg, TypeTurnContext, TypeCompacted:
		return true
	case TypeResponseItem:
		if !e.Bare {
			return true
		}
		// A bare line is a response item when it has what Codex always
		// writes in one: a message its role, a call or output its call_id.
		switch itemKinds[e.ItemType] {
		case kindMessage:
			return e.Role != ""
		case kindAssistant, kindResult:
			return e.CallID != "" || e.ItemType == "reasoning" || e.ItemType == "web_search_call"
		}
	}
	return false
}

// parseLines reads the lines, in parallel chunks when the file is large,
// each chunk straight into its own region of one slice; and the token
// counts' numbers.
func parseLines(data []byte, diags *[]model.Diagnostic) ([]Entry, []count) {
	if len(data) == 0 {
		return nil, nil
	}
	type say struct {
		diags  []model.Diagnostic
		counts []count
	}
	var counts []count
	all := par.ParseLines([][]byte{data}, runtime.GOMAXPROCS(0), func(p par.Part, out []Entry) (int, say) {
		n, d, c := parseChunk(p, out)
		return n, say{d, c}
	}, func(s say, at int) {
		for j := range s.counts {
			s.counts[j].entry += int32(at)
		}
		if counts == nil {
			counts = s.counts
		} else {
			counts = append(counts, s.counts...)
		}
		*diags = append(*diags, s.diags...)
	})
	return all, counts
}

// parseChunk parses the lines of p into out (a slot for each) and returns
// how many it filled, and the token counts among them.
func parseChunk(p par.Part, out []Entry) (int, []model.Diagnostic, []count) {
	var diags []model.Diagnostic
	var counts []count
	n := 0
	for ln := range p.Lines() {
		e := &out[n]
		if err := parseLine(e, ln.Text); err != nil {
			*e = Entry{}
			msg := "not a JSON object"
			if err != jscan.ErrNotObject {
				msg = jscan.Malformed(err, ln.Last)
			}
			diags = append(diags, model.Diagnostic{Line: ln.No, Msg: msg + ": line skipped (Codex skips it)"})
			continue
		}
		e.Line = ln.No
		if e.Type == TypeEventMsg && e.ItemType == "token_count" {
			counts = append(counts, parseCount(int32(n), e.Payload))
		}
		n++
	}
	return n, diags, counts
}

// names are the type and role names Codex writes, so that an entry's
// strings are these rather than slices of its line where they can be.
var names = map[string]string{}

func init() {
	for _, n := range []string{TypeSessionMeta, TypeResponseItem, TypeEventMsg, TypeTurnContext, TypeCompacted, TypeTokenUsageRecord,
		"user", "assistant", "developer", "system", "token_count", "user_message", "agent_message",
		"agent_reasoning", "turn_aborted", "task_started", "task_complete", "turn_started", "turn_complete",
		"context_compacted", "thread_rolled_back", "thread_name_updated", "shell", "exec_command",
		"apply_patch", "update_plan", "write_stdin", "view_image"} {
		names[n] = n
	}
	for t := range itemKinds {
		names[t] = t
	}
}

// name is a JSON string's value, one of names when it is one.
func name(v []byte) string {
	s, _ := jscan.StringShared(v)
	if c, ok := names[s]; ok {
		return c
	}
	return s
}

// parseLine validates a line and reads what the session needs of it: the
// envelope's timestamp, type and payload, and the payload's type, role,
// call id and name; or the same members of a bare line.
func parseLine(e *Entry, line []byte) error {
	e.Raw = line
	var typ, payload, ts, id []byte
	var role, callID, toolName []byte
	if err := jscan.Raws(line, []string{"type", "payload", "timestamp", "role", "call_id", "name", "id"},
		&typ, &payload, &ts, &role, &callID, &toolName, &id); err != nil {
		return err
	}
	e.Timestamp, _ = jscan.StringShared(ts)
	switch {
	case payload != nil && jscan.IsString(typ):
		e.Type = name(typ)
		e.Payload = payload
		if len(payload) > 0 && payload[0] == '{' && (e.Type == TypeResponseItem || e.Type == TypeEventMsg) {
			readItem(e, payload)
		}
	case jscan.IsString(typ):
		e.Type, e.Bare, e.Payload = TypeResponseItem, true, line
		e.ItemType = name(typ)
		e.Role = name(role)
		e.CallID, _ = jscan.StringShared(callID)
		e.Name = name(toolName)
	case typ == nil && jscan.IsString(id) && ts != nil:
		e.Type, e.Bare, e.Payload = TypeSessionMeta, true, line
	default:
		e.Bare, e.Payload = true, line
	}
	return nil
}

// readItem reads a payload's type, role, call_id and name, stopping once it
// has what the type needs: the members Codex writes before the large ones
// (a message's role before its content, an output's call_id before it).
func readItem(e *Entry, obj []byte) {
	it := jscan.Walk(obj)
	for k, ok := it.Next(); ok; k, ok = it.Next() {
		switch jscan.Key(k) {
		case "type":
			e.ItemType = name(it.Value())
		case "role":
			e.Role = name(it.Value())
		case "call_id":
			e.CallID, _ = jscan.StringShared(it.Value())
		case "name":
			e.Name = name(it.Value())
		default:
			continue
		}
		if e.Type == TypeEventMsg && e.ItemType != "" {
			return
		}
		switch e.ItemType {
		case "":
		case "message":
			if e.Role != "" {
				return
			}
		case "function_call", "custom_tool_call":
			if e.CallID != "" && e.Name != "" {
				return
			}
		case "function_call_output", "custom_tool_call_output":
			if e.CallID != "" {
				return
			}
		}
	}
}

// Sniff reports whether head, the first bytes of a file, starts as a Codex
// rollout: its first non-blank line is a rollout line whose type is one of
// Codex's (session_meta first, as Codex writes it) or an old file's header
// {id, timestamp} with no type. A line cut off by the end of head counts
// when it begins as Codex writes one ({"timestamp":"...","type":"session_meta",
// or an old header {"id":"...).
func Sniff(head []byte) bool {
	line, whole, ok := jscan.FirstLine(head)
	if !ok {
		return false
	}
	if !whole {
		if bytes.HasPrefix(line, []byte(`{"timestamp":"`)) {
			i := bytes.Index(line, []byte(`","type":"`))
			if i < 0 || i > 64 {
				return false
			}
			rest := line[i+len(`","type":"`):]
			for _, t := range []string{TypeSessionMeta, TypeResponseItem, TypeEventMsg, TypeTurnContext, TypeCompacted} {
				if bytes.HasPrefix(rest, []byte(t+`","payload":`)) {
					return true
				}
			}
			return false
		}
		return legacyHead(line)
	}
	var e Entry
	if parseLine(&e, line) != nil {
		return false
	}
	if e.Bare {
		return e.Type == TypeSessionMeta
	}
	return e.known()
}

// legacyHead reports whether a line cut off begins as an old file's
// header: {"id":"<uuid>","timestamp":...
func legacyHead(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte(`{"id":"`))
	if !ok {
		return false
	}
	if len(rest) <= 36 {
		for _, c := range rest {
			if !(c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
		return true
	}
	const next = `","timestamp":"`
	tail := rest[36:]
	return isUUID(string(rest[:36])) && bytes.HasPrefix([]byte(next), tail[:min(len(tail), len(next))])
}

// Index finds an entry by its id ("L12").
func (s *Session) Index(id string) (int, bool) {
	if len(id) < 2 || id[0] != 'L' || id[1] == '0' || id[1] == '+' || id[1] == '-' {
		return 0, false
	}
	n, err := strconv.Atoi(id[1:])
	if err != nil {
		return 0, false
	}
	lo, hi := 0, len(s.Entries)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.Entries[m].Line < n {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s.Entries) && s.Entries[lo].Line == n {
		return lo, true
	}
	return 0, false
}
