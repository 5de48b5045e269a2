// Package dhara reads and writes the session format of the second seed: a
// folder per session holding meta.json, an append-only entries.jsonl,
// tree.json (the branches, each its full path of entry ids) and, after an
// archive move, archive.jsonl. DECISIONS.md says what skein decided where the
// seed and FORMATS.md §2 are silent. Parse is pure; the files are read and
// written in open.go and write.go.
package dhara

import (
	"bytes"
	"fmt"
	"math"
	"runtime"
	"sync"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
)

// The files of a session folder.
const (
	MetaFile    = "meta.json"
	TreeFile    = "tree.json"
	EntriesFile = "entries.jsonl"
	ArchiveFile = "archive.jsonl"
	LockFile    = ".lock"
)

// Entry types of FORMATS.md §2.
const (
	TypeMessage     = "message"
	TypeToolCall    = "tool_call"
	TypeToolResult  = "tool_result"
	TypeSystem      = "system"
	TypeModelChange = "model_change"
	TypeLabel       = "label"
	TypeCustom      = "custom"
	TypeCompaction  = "compaction"
)

// Files are a session folder's files as read; a nil slice is a file that is
// not there.
type Files struct {
	Meta, Tree, Entries, Archive []byte
}

// Meta is meta.json.
type Meta struct {
	ID, Title, CreatedAt, UpdatedAt string
	Provider, Model, FormatVersion  string
	Cwd                             string
	Raw                             []byte // the file as read, nil when absent
}

// Branch is one branch of tree.json.
type Branch struct {
	ID             string
	ParentBranchID string // "" for none (null)
	EntryIDs       []string
	CreatedAt      string
}

// Tree is tree.json.
type Tree struct {
	Root     string
	Branches []Branch
	Raw      []byte // nil when absent
}

// Entry is one line of entries.jsonl or archive.jsonl. Only what the tree,
// the list and the context need is decoded; the rest stays in Raw.
type Entry struct {
	ID, Type, Role, Timestamp string
	// ParentMessageID is a tool_call's owner; CallID a tool_result's call;
	// Target a label's entry; ToolName a tool_call's tool.
	ParentMessageID, CallID, Target, ToolName string
	Raw                                       []byte // the line, without its line ending
	Line                                      int    // 1-based, in its file
	Archived                                  bool   // the line is in archive.jsonl
	kind                                      model.EntryKind
}

// File is the name of the file the entry's line is in.
func (e *Entry) File() string {
	if e.Archived {
		return ArchiveFile
	}
	return EntriesFile
}

// Session is a parsed session folder: a model.Source.
type Session struct {
	Meta    Meta
	Tree    Tree
	Entries []Entry
	// Diagnostics are what reading found wrong (doctor adds the schema and
	// consistency checks, check.go).
	Diagnostics []model.Diagnostic
	// Duplicates are the lines dropped as copies of an id already read:
	// an interrupted archive move's (same bytes) or damage (different).
	Duplicates []Duplicate
	// CallNames names the tools of calls that are not among the entries
	// (a record read alone, for a snippet): call id -> tool name.
	CallNames map[string]string

	byID     map[string]int
	parent   []int32
	leaf     int
	active   int              // the active branch, -1 for none
	tips     map[int][]string // entry -> the branches that end there
	calls    map[int][]int    // owner message -> its tool calls, in entry order
	owned    []bool           // a tool_call whose owner is a message entry
	labels   map[int]string
	linkOnce sync.Once
	children [][]int
	roots    []int
}

// Duplicate is a line whose id an earlier line has.
type Duplicate struct {
	Entry     Entry // the dropped line
	First     int   // the index of the entry kept
	SameBytes bool
}

// Parse reads a session from its files' bytes. It never fails: what it
// cannot read is in Diagnostics, and a folder with no entries is an empty
// session.
func Parse(f Files) *Session {
	s := &Session{leaf: -1, active: -1}
	if f.Meta != nil {
		s.Meta = parseMeta(f.Meta, &s.Diagnostics)
	}
	if f.Tree != nil {
		s.Tree = parseTree(f.Tree, &s.Diagnostics)
	}
	archived := parseLines(f.Archive, true, &s.Diagnostics)
	working := parseLines(f.Entries, false, &s.Diagnostics)
	s.Entries = make([]Entry, 0, len(archived)+len(working))
	s.byID = make(map[string]int, len(archived)+len(working))
	for _, part := range [][]Entry{archived, working} {
		for _, e := range part {
			if e.ID != "" {
				if j, ok := s.byID[e.ID]; ok {
					s.Duplicates = append(s.Duplicates, Duplicate{Entry: e, First: j, SameBytes: bytes.Equal(e.Raw, s.Entries[j].Raw)})
					continue
				}
				s.byID[e.ID] = len(s.Entries)
			}
			s.Entries = append(s.Entries, e)
		}
	}
	s.link()
	return s
}

func parseMeta(data []byte, diags *[]model.Diagnostic) Meta {
	m := Meta{Raw: data}
	err := jscan.Members(bytes.TrimPrefix(data, bom), func(k, v []byte) bool {
		s, _ := stringOf(v)
		switch jscan.Key(k) {
		case "id":
			m.ID = s
		case "title":
			m.Title = s
		case "createdAt":
			m.CreatedAt = s
		case "updatedAt":
			m.UpdatedAt = s
		case "provider":
			m.Provider = s
		case "model":
			m.Model = s
		case "formatVersion":
			m.FormatVersion = s
		case "cwd":
			m.Cwd = s
		}
		return true
	})
	if err != nil {
		*diags = append(*diags, model.Diagnostic{File: MetaFile, Pointer: "/", Msg: "not a JSON object: " + err.Error()})
	}
	return m
}

func parseTree(data []byte, diags *[]model.Diagnostic) Tree {
	t := Tree{Raw: data}
	err := jscan.Members(bytes.TrimPrefix(data, bom), func(k, v []byte) bool {
		switch jscan.Key(k) {
		case "root":
			t.Root, _ = stringOf(v)
		case "branches":
			t.Branches = t.Branches[:0]
			_ = jscan.Elements(v, func(b []byte) bool {
				t.Branches = append(t.Branches, parseBranch(b))
				return true
			})
		}
		return true
	})
	if err != nil {
		*diags = append(*diags, model.Diagnostic{File: TreeFile, Pointer: "/", Msg: "not a JSON object: " + err.Error()})
	}
	return t
}

func parseBranch(b []byte) Branch {
	var br Branch
	_ = jscan.Members(b, func(k, v []byte) bool {
		switch jscan.Key(k) {
		case "id":
			br.ID, _ = stringOf(v)
		case "parentBranchId":
			br.ParentBranchID, _ = stringOf(v)
		case "createdAt":
			br.CreatedAt, _ = stringOf(v)
		case "entryIds":
			br.EntryIDs = br.EntryIDs[:0]
			_ = jscan.Elements(v, func(id []byte) bool {
				s, _ := stringOf(id)
				br.EntryIDs = append(br.EntryIDs, s)
				return true
			})
		}
		return true
	})
	return br
}

var bom = []byte("\xef\xbb\xbf")

// stringOf is a JSON string's value (copied out of the line).
func stringOf(v []byte) (string, bool) {
	if !jscan.IsString(v) {
		return "", false
	}
	return jscan.Unquote(v)
}

// parseLines reads a .jsonl file's lines, in parallel chunks when it is
// large.
func parseLines(data []byte, archived bool, diags *[]model.Diagnostic) []Entry {
	if len(data) == 0 {
		return nil
	}
	data = bytes.TrimPrefix(data, bom)
	chunks := splitChunks(data, runtime.GOMAXPROCS(0))
	type result struct {
		entries []Entry
		diags   []model.Diagnostic
		lines   int
	}
	results := make([]result, len(chunks))
	starts := make([]int, len(chunks)) // the first line number of each chunk
	line := 1
	for k, c := range chunks {
		starts[k] = line
		line += bytes.Count(c, nl)
	}
	run := func(k int) {
		r := &results[k]
		r.entries, r.diags = parseChunk(chunks[k], starts[k], archived, k == len(chunks)-1)
	}
	if len(chunks) == 1 {
		run(0)
	} else {
		var wg sync.WaitGroup
		for k := range chunks {
			wg.Go(func() { run(k) })
		}
		wg.Wait()
	}
	n := 0
	for _, r := range results {
		n += len(r.entries)
	}
	out := make([]Entry, 0, n)
	for _, r := range results {
		out = append(out, r.entries...)
		*diags = append(*diags, r.diags...)
	}
	return out
}

var nl = []byte{'\n'}

// splitChunks cuts data into up to n pieces at line ends; small files stay
// whole.
func splitChunks(data []byte, n int) [][]byte {
	const minChunk = 4 << 20
	if n < 2 || len(data) < 2*minChunk {
		return [][]byte{data}
	}
	var chunks [][]byte
	for k := n; k > 1 && len(data) > minChunk; k-- {
		cut := len(data) / k
		i := bytes.IndexByte(data[cut:], '\n')
		if i < 0 {
			break
		}
		chunks = append(chunks, data[:cut+i+1])
		data = data[cut+i+1:]
	}
	return append(chunks, data)
}

func parseChunk(data []byte, lineNo int, archived, last bool) ([]Entry, []model.Diagnostic) {
	out := make([]Entry, 0, bytes.Count(data, nl)+1)
	var diags []model.Diagnostic
	file := EntriesFile
	if archived {
		file = ArchiveFile
	}
	for lineNo--; len(data) > 0; {
		lineNo++
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if isBlank(line) {
			continue
		}
		e, err := parseEntry(line)
		if err != nil {
			msg := "malformed JSON"
			if last && len(data) == 0 {
				msg = "malformed JSON (partial last line)"
			}
			diags = append(diags, model.Diagnostic{File: file, Line: lineNo, Msg: fmt.Sprintf("%s: %v", msg, err)})
			continue
		}
		e.Line, e.Archived = lineNo, archived
		out = append(out, e)
	}
	return out, diags
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v' {
			return false
		}
	}
	return true
}

var kinds = map[string]model.EntryKind{
	TypeMessage:     model.EntryMessage,
	TypeToolCall:    model.EntryMessage,
	TypeToolResult:  model.EntryMessage,
	TypeSystem:      model.EntryMessage,
	TypeModelChange: model.EntryModelChange,
	TypeLabel:       model.EntryLabel,
	TypeCustom:      model.EntryCustom,
	TypeCompaction:  model.EntryCompaction,
}

// parseEntry reads the members of a line that the session needs.
func parseEntry(line []byte) (Entry, error) {
	e := Entry{Raw: line}
	it := jscan.Object(line)
	for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
		if !jscan.IsString(v) {
			continue
		}
		var dst *string
		switch it.Name(k) {
		case "id":
			dst = &e.ID
		case "type":
			dst = &e.Type
		case "role":
			dst = &e.Role
		case "timestamp":
			dst = &e.Timestamp
		case "parentMessageId":
			dst = &e.ParentMessageID
		case "callId":
			dst = &e.CallID
		case "targetId":
			dst = &e.Target
		case "toolName":
			dst = &e.ToolName
		default:
			continue
		}
		*dst, _ = jscan.Unquote(v)
	}
	if err := it.Err(); err != nil {
		if err == jscan.ErrNotObject {
			return e, fmt.Errorf("line is JSON but not an entry object")
		}
		return e, err
	}
	e.kind = kinds[e.Type]
	switch e.Type {
	case TypeToolCall:
		e.Role = model.RoleAssistant
	case TypeToolResult:
		e.Role = model.RoleToolResult
	case TypeSystem:
		e.Role = model.RoleSystem
	case TypeMessage:
	default:
		e.Role = ""
	}
	return e, nil
}

// link builds the entry tree from tree.json, the active branch and leaf,
// labels, and which calls belong to which message.
func (s *Session) link() {
	n := len(s.Entries)
	s.parent = make([]int32, n)
	for i := range s.parent {
		s.parent[i] = -1
	}
	inBranch := make([]bool, n)
	s.tips = map[int][]string{}
	bestAt, best := math.Inf(-1), -1
	branches := s.Tree.Branches
	if len(branches) == 0 && n > 0 {
		// No tree: the entries are one chain in file order.
		chain := Branch{EntryIDs: make([]string, 0, n)}
		for i := range s.Entries {
			chain.EntryIDs = append(chain.EntryIDs, s.Entries[i].ID)
		}
		branches = []Branch{chain}
	}
	for b := range branches {
		br := &branches[b]
		prev := -1
		for _, id := range br.EntryIDs {
			i, ok := s.byID[id]
			if !ok {
				continue // doctor reports it; the rest of the branch still links
			}
			// An entry's parent is set once, to one placed before it: the
			// links cannot make a cycle.
			if !inBranch[i] {
				inBranch[i] = true
				s.parent[i] = int32(prev)
			}
			prev = i
		}
		if prev >= 0 && br.ID != "" {
			s.tips[prev] = append(s.tips[prev], br.ID)
		}
		// The branch's activity: the later of its creation and its last
		// entry's time (DECISIONS.md 6).
		at := timeOf(br.CreatedAt)
		if prev >= 0 {
			at = max(at, timeOf(s.Entries[prev].Timestamp))
		}
		if best < 0 || at >= bestAt {
			best, bestAt = b, at
			s.leaf = prev
		}
	}
	if len(s.Tree.Branches) > 0 {
		s.active = best
	}
	s.calls = map[int][]int{}
	s.owned = make([]bool, n)
	s.labels = map[int]string{}
	for i := range s.Entries {
		e := &s.Entries[i]
		switch e.Type {
		case TypeToolCall:
			if j, ok := s.byID[e.ParentMessageID]; ok && s.Entries[j].Type == TypeMessage {
				s.calls[j] = append(s.calls[j], i)
				s.owned[i] = true
			}
		case TypeLabel:
			if j, ok := s.byID[e.Target]; ok {
				label, _ := stringOf(jscan.Member(e.Raw, "label"))
				if label == "" {
					delete(s.labels, j)
				} else {
					s.labels[j] = label
				}
			}
		}
	}
}

// timeOf is an ISO time in ms, -Inf when it is not one.
func timeOf(iso string) float64 {
	t := jsdate.Parse(iso)
	if t != t {
		return math.Inf(-1)
	}
	return t
}

// ToolNames are the tool names of the session's calls by call id.
func (s *Session) ToolNames() map[string]string {
	out := map[string]string{}
	for i := range s.Entries {
		if e := &s.Entries[i]; e.Type == TypeToolCall {
			out[e.ID] = e.ToolName
		}
	}
	return out
}
