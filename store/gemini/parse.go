// Package gemini reads Gemini CLI's chat files (0.61.0), read-only:
// ~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl, a sub-agent's
// chats/<parent id>/<id>.jsonl, and the older whole-file .json records.
// FORMAT.md says what the files hold and how Gemini CLI reads them back.
package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"skein/model"
)

// Format is the name list records and the indexes give Gemini CLI's files.
const Format = "gemini"

// ErrNotSession is the error for a file that holds no Gemini CLI record.
var ErrNotSession = errors.New("not a Gemini CLI chat file")

// Meta is the conversation's metadata: the first line's, with every
// later metadata line and $set merged in (loadConversationRecord).
type Meta struct {
	SessionID   string   `json:"sessionId"`
	ProjectHash string   `json:"projectHash"`
	StartTime   string   `json:"startTime"`
	LastUpdated string   `json:"lastUpdated"`
	Summary     string   `json:"summary"`
	Kind        string   `json:"kind"` // "main" or "subagent"
	Directories []string `json:"directories"`
}

// message is a MessageRecord: {id, timestamp, type, content} and, for a
// model's turn, its tool calls, thoughts, tokens and model.
type message struct {
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"` // user, gemini, info, error, warning
	Content   json.RawMessage `json:"content"`
	ToolCalls []toolCall      `json:"toolCalls"`
	Thoughts  []thought       `json:"thoughts"`
	Tokens    *tokens         `json:"tokens"`
	Model     string          `json:"model"`
}

type toolCall struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Result json.RawMessage `json:"result"`
	Status string          `json:"status"`
}

type thought struct {
	Subject     string `json:"subject"`
	Description string `json:"description"`
}

// tokens is a TokensSummary: the API's usageMetadata of the turn.
type tokens struct {
	Input    float64 `json:"input"`  // promptTokenCount, cached ones included
	Output   float64 `json:"output"` // candidatesTokenCount
	Cached   float64 `json:"cached"`
	Thoughts float64 `json:"thoughts"`
	Tool     float64 `json:"tool"`
	Total    float64 `json:"total"`
}

// part is a Part of the API's content, as far as skein reads it.
type part struct {
	Text             *string         `json:"text"`
	Thought          bool            `json:"thought"`
	FunctionCall     *functionCall   `json:"functionCall"`
	FunctionResponse *functionResp   `json:"functionResponse"`
	InlineData       json.RawMessage `json:"inlineData"`
}

type functionCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type functionResp struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

// Entry is one entry of the session: a message (a user message whose
// content is function responses is one entry per response), a
// compaction, or a line skein does not read as either.
type Entry struct {
	kind   model.EntryKind
	typ    string // the record's type, "compaction", or "" for a line
	role   string
	id     string
	msg    int32 // the message's index in Session.msgs, -1 for none
	part   int32 // the function response a result entry is, -1 for the whole
	line   int
	parent int32
	raw    []byte
	kept   []int32 // a compaction: the messages it kept, by index
}

// Session is a parsed chat file; it implements model.Source.
type Session struct {
	Meta        Meta
	Entries     []Entry
	Diagnostics []model.Diagnostic
	msgs        []message // every message id seen, its last version
	msgEntries  [][]int32 // each message's entries
	conv        []int32   // the conversation as Gemini CLI loads it: messages, in order
	leaf        int
	path        string
	firstStart  string // the first metadata's startTime (a resume writes another)
	projectRoot string // .project_root beside chats/, read by Open
	parentID    string // a sub-agent's: the folder it is in, read by Open
}

// state is what a reader keeps while it walks the lines.
type state struct {
	s     *Session
	index map[string]int32 // message id -> msgs index
	last  int32            // the entry made last
	cut   bool             // a rewind cut the conversation since
}

// Parse reads a chat file's bytes: JSON lines, or one whole JSON record
// (the .json files of older versions).
func Parse(data []byte) (*Session, error) {
	s := &Session{leaf: -1}
	st := &state{s: s, index: map[string]int32{}, last: -1}
	trimmed := bytes.TrimSpace(data)
	if whole, ok := legacy(trimmed); ok {
		st.metadata(whole.raw)
		for _, m := range whole.Messages {
			st.upsert(m, 1)
		}
	} else {
		lines := 0
		for off := 0; off < len(data); {
			end := bytes.IndexByte(data[off:], '\n')
			if end < 0 {
				end = len(data)
			} else {
				end += off
			}
			line := bytes.TrimSpace(data[off:end])
			off = end + 1
			lines++
			if len(line) == 0 {
				continue
			}
			st.record(line, lines)
		}
	}
	if s.Meta.SessionID == "" && len(s.msgs) == 0 {
		return nil, ErrNotSession
	}
	s.leaf = -1
	if n := len(s.conv); n > 0 {
		if es := s.msgEntries[s.conv[n-1]]; len(es) > 0 {
			s.leaf = int(es[len(es)-1])
		}
	}
	if s.leaf < 0 && len(s.Entries) > 0 {
		s.leaf = len(s.Entries) - 1
	}
	return s, nil
}

type legacyRecord struct {
	SessionID string    `json:"sessionId"`
	Messages  []message `json:"messages"`
	raw       []byte
}

// legacy reads a whole-file record ({sessionId, projectHash, messages}).
func legacy(data []byte) (legacyRecord, bool) {
	var r legacyRecord
	if len(data) == 0 || data[0] != '{' || bytes.IndexByte(data, '\n') < 0 && !bytes.Contains(data, []byte(`"messages"`)) {
		return r, false
	}
	if json.Unmarshal(data, &r) != nil || r.SessionID == "" || r.Messages == nil {
		return r, false
	}
	r.raw = data
	return r, true
}

// record reads one line, as loadConversationRecord does: a rewind, a
// message (it has a string id), a metadata update, or the metadata.
func (st *state) record(line []byte, n int) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(line, &probe); err != nil {
		st.problem(n, "not a JSON object: "+err.Error())
		return
	}
	isString := func(k string) bool { v := probe[k]; return len(v) > 0 && v[0] == '"' }
	switch {
	case isString("$rewindTo"):
		var id string
		_ = json.Unmarshal(probe["$rewindTo"], &id)
		st.rewind(id)
	case isString("id"):
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			st.problem(n, "a message that does not read: "+err.Error())
			return
		}
		st.upsert(m, n)
		st.s.Entries[st.s.msgEntries[st.index[m.ID]][0]].raw = line
	case len(probe["$set"]) > 0 && probe["$set"][0] == '{':
		var set map[string]json.RawMessage
		_ = json.Unmarshal(probe["$set"], &set)
		if ms, ok := set["messages"]; ok && len(ms) > 0 && ms[0] == '[' {
			var list []message
			if err := json.Unmarshal(ms, &list); err != nil {
				st.problem(n, "a $set of messages that does not read: "+err.Error())
			} else {
				st.replace(list, n, line)
			}
		}
		st.metadata(probe["$set"])
	case isString("sessionId") && isString("projectHash"):
		st.metadata(line)
	default:
		st.problem(n, "a line Gemini CLI does not read (no id, $set, $rewindTo or sessionId)")
		st.add(Entry{kind: model.EntryOther, msg: -1, part: -1, line: n, raw: line})
	}
}

func (st *state) problem(line int, msg string) {
	st.s.Diagnostics = append(st.s.Diagnostics, model.Diagnostic{Line: line, Msg: msg})
}

// metadata merges an object's metadata fields into Meta.
func (st *state) metadata(obj []byte) {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return
	}
	str := func(k string, dst *string) {
		if v, ok := m[k]; ok {
			var s string
			if json.Unmarshal(v, &s) == nil {
				*dst = s
			}
		}
	}
	meta := &st.s.Meta
	if st.s.firstStart == "" {
		str("startTime", &st.s.firstStart)
	}
	str("sessionId", &meta.SessionID)
	str("projectHash", &meta.ProjectHash)
	str("startTime", &meta.StartTime)
	str("lastUpdated", &meta.LastUpdated)
	str("summary", &meta.Summary)
	str("kind", &meta.Kind)
	if v, ok := m["directories"]; ok {
		_ = json.Unmarshal(v, &meta.Directories)
	}
}

// add appends an entry whose parent is the entry made last, or, after a
// rewind, the last entry of the conversation that is left.
func (st *state) add(e Entry) int32 {
	s := st.s
	e.parent = st.last
	if st.cut {
		e.parent = -1
		if n := len(s.conv); n > 0 {
			es := s.msgEntries[s.conv[n-1]]
			e.parent = es[len(es)-1]
		}
		st.cut = false
	}
	s.Entries = append(s.Entries, e)
	st.last = int32(len(s.Entries) - 1)
	return st.last
}

// upsert records a message: a new id is appended to the conversation, a
// known one replaces its earlier version where it stands (a Map's set).
// A rewind that removed it makes it new again.
func (st *state) upsert(m message, line int) {
	s := st.s
	k, known := st.index[m.ID]
	if known {
		keep := s.msgs[k].Tokens
		s.msgs[k] = m
		if m.Tokens == nil {
			s.msgs[k].Tokens = keep
		}
		for _, e := range s.msgEntries[k] {
			s.Entries[e].line = line
		}
		if !st.inConv(k) {
			s.conv = append(s.conv, k)
		}
		return
	}
	k = st.newMessage(m, line)
	s.conv = append(s.conv, k)
}

func (st *state) inConv(k int32) bool {
	for _, c := range st.s.conv {
		if c == k {
			return true
		}
	}
	return false
}

// newMessage adds a message never seen and its entries.
func (st *state) newMessage(m message, line int) int32 {
	s := st.s
	k := int32(len(s.msgs))
	s.msgs = append(s.msgs, m)
	st.index[m.ID] = k
	var es []int32
	role, kind := roleOf(m.Type), model.EntryMessage
	if m.Type == "user" {
		if n := len(responses(m.Content)); n > 0 {
			for p := range n {
				id := m.ID
				if p < n-1 {
					id += "#" + strconv.Itoa(p+1)
				}
				es = append(es, st.add(Entry{kind: kind, typ: m.Type, role: model.RoleToolResult, id: id, msg: k, part: int32(p), line: line}))
			}
			s.msgEntries = append(s.msgEntries, es)
			return k
		}
	}
	es = append(es, st.add(Entry{kind: kind, typ: m.Type, role: role, id: m.ID, msg: k, part: -1, line: line}))
	s.msgEntries = append(s.msgEntries, es)
	return k
}

func roleOf(typ string) string {
	switch typ {
	case "user":
		return model.RoleUser
	case "gemini":
		return model.RoleAssistant
	}
	return model.RoleCustom
}

// rewind cuts the conversation at message id, that message included; an
// id not in it empties the conversation (loadConversationRecord).
func (st *state) rewind(id string) {
	s := st.s
	k, ok := st.index[id]
	cut := 0
	if ok {
		for i, c := range s.conv {
			if c == k {
				cut = i
				break
			}
		}
		if !st.inConv(k) {
			cut = 0
		}
	}
	s.conv = s.conv[:cut]
	st.cut = true
}

// replace is a $set of messages: the conversation becomes the list. When
// the list drops messages of the conversation and brings new ones (a chat
// compression), a compaction entry comes before the new ones.
func (st *state) replace(list []message, line int, raw []byte) {
	s := st.s
	in := map[string]bool{}
	fresh := 0
	for _, m := range list {
		in[m.ID] = true
		if _, ok := st.index[m.ID]; !ok {
			fresh++
		}
	}
	dropped := false
	for _, c := range s.conv {
		if !in[s.msgs[c].ID] {
			dropped = true
			break
		}
	}
	var comp int32 = -1
	if dropped && fresh > 0 && len(s.conv) > 0 {
		comp = st.add(Entry{kind: model.EntryCompaction, typ: "compaction", msg: -1, part: -1, line: line, raw: raw})
	}
	s.conv = s.conv[:0:0]
	for _, m := range list {
		k, ok := st.index[m.ID]
		if ok {
			keep := s.msgs[k].Tokens
			s.msgs[k] = m
			if m.Tokens == nil {
				s.msgs[k].Tokens = keep
			}
			if comp >= 0 {
				s.Entries[comp].kept = append(s.Entries[comp].kept, k)
			}
		} else {
			k = st.newMessage(m, line)
		}
		s.conv = append(s.conv, k)
	}
}

// responses are the function response parts of a content, nil when any
// part is something else.
func responses(content json.RawMessage) []functionResp {
	ps := parts(content)
	var out []functionResp
	for _, p := range ps {
		if p.FunctionResponse == nil {
			return nil
		}
		out = append(out, *p.FunctionResponse)
	}
	return out
}

// parts reads a PartListUnion: a string, a part, or an array of strings
// and parts (ensurePartArray).
func parts(content json.RawMessage) []part {
	c := bytes.TrimSpace(content)
	if len(c) == 0 {
		return nil
	}
	switch c[0] {
	case '"':
		var t string
		_ = json.Unmarshal(c, &t)
		return []part{{Text: &t}}
	case '{':
		var p part
		_ = json.Unmarshal(c, &p)
		return []part{p}
	case '[':
		var raw []json.RawMessage
		_ = json.Unmarshal(c, &raw)
		out := make([]part, 0, len(raw))
		for _, r := range raw {
			out = append(out, parts(r)...)
		}
		return out
	}
	return nil
}

// Sniff reports whether a file's head looks like a Gemini CLI chat file:
// its first line is the metadata record.
func Sniff(head []byte) bool {
	line := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		line = head[:i]
	}
	return detect(line)
}

func detect(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	return bytes.Contains(line, []byte(`"sessionId":"`)) && bytes.Contains(line, []byte(`"projectHash":"`))
}
