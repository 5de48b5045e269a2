// Package dhara reads and writes the session format of the second seed: a
// folder per session holding meta.json, an append-only entries.jsonl,
// tree.json (the branches, each its full path of entry ids) and, after an
// archive move, archive.jsonl. DECISIONS.md says what skein decided where the
// seed and FORMATS.md §2 are silent. Parse is pure; the files are read and
// written in open.go and write.go.
package dhara

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/internal/par"
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
	ImportedFrom                    string // importedFrom.format: the source's format when skein imported it
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
// the list and the context need is decoded; the rest stays in Raw. The
// strings share the file's memory when they have no escapes: the session's
// buffers are the Go heap's, read once and never written (see str).
type Entry struct {
	ID, Type, Role, Timestamp string
	// Ref is what the entry names: a tool_call's message
	// (parentMessageId), a tool_result's call (callId), a label's entry
	// (targetId).
	Ref      string
	ToolName string // a tool_call's tool
	Raw      []byte // the line, without its line ending
	Line     int    // 1-based, in its file
	Off      int    // the offset of its first byte in its file
	Archived bool   // the line is in archive.jsonl
	kind     model.EntryKind
	hash     uint64 // idHash(ID), made while the line is parsed
	code     entryType
	idPlain  bool // ID is written in JSON as it is, between quotes
	// synthetic: "synthetic": true, an entry skein made on import
	// (Synthetic).
	synthetic bool
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
	Meta Meta
	Tree Tree
	model.EntryTree[Entry, *Entry]
	// Diagnostics are what reading found wrong (doctor adds the schema and
	// consistency checks, check.go).
	Diagnostics []model.Diagnostic
	// Duplicates are the lines dropped as copies of an id already read:
	// an interrupted archive move's (same bytes) or damage (different).
	Duplicates []Duplicate
	// CallNames names the tools of calls that are not among the entries
	// (a record read alone, for a snippet): call id -> tool name.
	CallNames map[string]string

	byID   idTable
	typ    []entryType // each entry's type, dense: the context walks read only it
	parent []int32
	leaf   int
	active int              // the active branch, -1 for none
	tips   map[int][]string // entry -> the branches that end there
	// A message's tool calls, in entry order: the first (-1: none) and, for
	// each call, the next; owner is a call's message (-1: none).
	firstCall, nextCall, owner []int32
	labels                     map[int]string
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
	// tree.json (16 MB for a 100 MB session of three branches) is read
	// beside the lines, which take a goroutine per core: one more goroutine
	// keeps both cores busy through the id table and the lines' last chunk.
	var treeDiags []model.Diagnostic
	var wg sync.WaitGroup
	if f.Tree != nil {
		wg.Go(func() { s.Tree = parseTree(f.Tree, &treeDiags) })
	}
	var lineDiags []model.Diagnostic
	all := parseLines(f.Archive, f.Entries, &lineDiags)
	table, dups := buildIDTable(all)
	kept := all
	if len(dups) > 0 {
		// Lines dropped as copies (an interrupted archive move, or
		// damage): the rest move up, and are indexed again.
		drop := make([]bool, len(all))
		for _, d := range dups {
			drop[d.at] = true
		}
		// A kept entry's index among the kept: its own, less the lines
		// dropped before it (an earlier copy is never itself dropped).
		for _, d := range dups {
			before, _ := slices.BinarySearchFunc(dups, d.first, func(e idDup, at int) int { return e.at - at })
			first := d.first - before
			s.Duplicates = append(s.Duplicates, Duplicate{Entry: all[d.at], First: first, SameBytes: bytes.Equal(all[d.at].Raw, all[d.first].Raw)})
		}
		kept = all[:0]
		for i := range all {
			if !drop[i] {
				kept = append(kept, all[i])
			}
		}
		table, _ = buildIDTable(kept)
	}
	s.byID = table
	s.Entries = kept
	wg.Wait()
	s.Diagnostics = append(append(s.Diagnostics, treeDiags...), lineDiags...)
	s.link()
	return s
}

func parseMeta(data []byte, diags *[]model.Diagnostic) Meta {
	m := Meta{Raw: data}
	err := jscan.Members(bytes.TrimPrefix(data, jscan.BOM), func(k, v []byte) bool {
		s, _ := jscan.String(v)
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
		case "importedFrom":
			m.ImportedFrom, _ = jscan.String(jscan.Member(v, "format"))
		}
		return true
	})
	if err != nil {
		*diags = append(*diags, model.Diagnostic{File: MetaFile, Pointer: "/", Msg: "not a JSON object: " + err.Error()})
	}
	return m
}

func parseTree(data []byte, diags *[]model.Diagnostic) Tree {
	if t, ok := parseTreeStrict(data); ok {
		return t
	}
	return parseTreeMembers(data, diags)
}

// parseTreeMembers is parseTree validating first, then walking what it
// validated: what says where a document that is no tree goes wrong.
func parseTreeMembers(data []byte, diags *[]model.Diagnostic) Tree {
	t := Tree{Raw: data}
	err := jscan.Members(bytes.TrimPrefix(data, jscan.BOM), func(k, v []byte) bool {
		switch jscan.Key(k) {
		case "root":
			t.Root, _ = jscan.String(v)
		case "branches":
			// Members validated it: the walk inside need not again.
			t.Branches, _ = parseBranches(t.Branches[:0], v, 0, false)
		}
		return true
	})
	if err != nil {
		*diags = append(*diags, model.Diagnostic{File: TreeFile, Pointer: "/", Msg: "not a JSON object: " + err.Error()})
	}
	return t
}

// parseTreeStrict reads a tree.json that is valid JSON in one walk that
// validates as it reads (tree.json of a 100 MB session lists 677,000 ids:
// validating it first was a walk more); false for anything else, which
// parseTree then reads as before, to say what is wrong.
func parseTreeStrict(data []byte) (Tree, bool) {
	t := Tree{Raw: data}
	d := bytes.TrimPrefix(data, jscan.BOM)
	i := jscan.SkipSpace(d, 0)
	if i >= len(d) || d[i] != '{' {
		return t, false
	}
	i = jscan.SkipSpace(d, i+1)
	for first := true; i < len(d) && d[i] != '}'; first = false {
		if !first {
			if d[i] != ',' {
				return t, false
			}
			i = jscan.SkipSpace(d, i+1)
		}
		kend, err := jscan.Skip(d, i)
		if err != nil || d[i] != '"' {
			return t, false
		}
		key := jscan.Key(d[i:kend])
		if i = jscan.SkipSpace(d, kend); i >= len(d) || d[i] != ':' {
			return t, false
		}
		i = jscan.SkipSpace(d, i+1)
		var end int
		if key == "branches" && i < len(d) && d[i] == '[' {
			t.Branches, end = parseBranches(t.Branches[:0], d, i, true)
		} else {
			if end, err = jscan.Skip(d, i); err != nil {
				return t, false
			}
			switch key {
			case "root":
				t.Root, _ = jscan.String(d[i:end])
			case "branches":
				t.Branches = t.Branches[:0]
			}
		}
		if end < 0 {
			return t, false
		}
		i = jscan.SkipSpace(d, end)
	}
	if i >= len(d) || jscan.SkipSpace(d, i+1) != len(d) {
		return t, false
	}
	return t, true
}

// skipper is jscan.SkipValid for what is known valid, else jscan.Skip,
// which validates: -1 for a value that is not one.
func skipper(strict bool) func(data []byte, i int) int {
	if !strict {
		return jscan.SkipValid
	}
	return func(data []byte, i int) int {
		end, err := jscan.Skip(data, i)
		if err != nil {
			return -1
		}
		return end
	}
}

// next is the index of what follows a value that ends at end in a list
// closed by closer: past a comma, or at the closer; -1 when strict and it
// is neither (or a comma before the closer).
func next(data []byte, end int, closer byte, strict bool) int {
	i := jscan.SkipSpace(data, end)
	if i < len(data) && data[i] == ',' {
		i = jscan.SkipSpace(data, i+1)
		if strict && (i >= len(data) || data[i] == closer) {
			return -1
		}
		return i
	}
	if strict && (i >= len(data) || data[i] != closer) {
		return -1
	}
	return i
}

// parseBranches appends the branches of the JSON array at data[i] and
// returns the index past it (-1 when it is not one, strict); an element
// that is not an object is an empty branch. Unless strict the array is
// known valid.
func parseBranches(out []Branch, data []byte, i int, strict bool) ([]Branch, int) {
	skip := skipper(strict)
	if i = jscan.SkipSpace(data, i); i >= len(data) || data[i] != '[' {
		return out, -1
	}
	for i = jscan.SkipSpace(data, i+1); i < len(data) && data[i] != ']'; {
		var br Branch
		end := -1
		if data[i] == '{' {
			br, end = parseBranch(data, i, strict)
		} else {
			end = skip(data, i)
		}
		if end < 0 {
			return out, -1
		}
		out = append(out, br)
		if i = next(data, end, ']', strict); i < 0 {
			return out, -1
		}
	}
	if i >= len(data) {
		return out, -1
	}
	return out, i + 1
}

// parseBranch reads the JSON object at data[i] as a branch and returns the
// index past it (-1 when it is not one, strict; unless strict it is known
// valid).
func parseBranch(data []byte, i int, strict bool) (Branch, int) {
	var br Branch
	skip := skipper(strict)
	for i = jscan.SkipSpace(data, i+1); i < len(data) && data[i] == '"'; {
		kend := skip(data, i)
		if kend < 0 {
			return br, -1
		}
		key := jscan.Key(data[i:kend])
		i = jscan.SkipSpace(data, kend)
		if i >= len(data) || data[i] != ':' {
			return br, -1
		}
		i = jscan.SkipSpace(data, i+1)
		var end int
		if key == "entryIds" && i < len(data) && data[i] == '[' {
			br.EntryIDs, end = appendIDs(br.EntryIDs[:0], data, i, strict)
		} else {
			end = skip(data, i)
			if end < 0 {
				return br, -1
			}
			switch v := data[i:end]; key {
			case "id":
				br.ID, _ = jscan.String(v)
			case "parentBranchId":
				br.ParentBranchID, _ = jscan.String(v)
			case "createdAt":
				br.CreatedAt, _ = jscan.String(v)
			case "entryIds":
				br.EntryIDs = br.EntryIDs[:0]
			}
		}
		if end < 0 {
			return br, -1
		}
		if i = next(data, end, '}', strict); i < 0 {
			return br, -1
		}
	}
	if i >= len(data) || data[i] != '}' {
		return br, -1
	}
	return br, i + 1
}

// appendIDs appends the elements of the valid JSON array at data[i] as
// strings ("" for an element that is not one) and returns the index past
// it. A plain id (ASCII, no escape) is read to its closing quote a byte at
// a time: ids are short, and a branch lists hundreds of thousands.
func appendIDs(out []string, data []byte, i int, strict bool) ([]string, int) {
	skip := skipper(strict)
	// Room for them all at once: the quotes up to the first ']' count
	// them (an estimate when an id holds a ']').
	end := bytes.IndexByte(data[i:], ']')
	if end < 0 {
		end = len(data) - i
	}
	out = slices.Grow(out, bytes.Count(data[i:i+end], []byte{'"'})/2)
	for i = jscan.SkipSpace(data, i+1); i < len(data) && data[i] != ']'; {
		end := -1
		if data[i] == '"' {
			j := plainIDEnd(data, i+1)
			if j < len(data) && data[j] == '"' {
				end = j + 1
				if j == i+1 {
					out = append(out, "")
				} else {
					out = append(out, unsafe.String(&data[i+1], j-i-1))
				}
			}
		}
		if end < 0 {
			if end = skip(data, i); end < 0 {
				return out, -1
			}
			s, _ := jscan.StringShared(data[i:end])
			out = append(out, s)
		}
		if end+2 < len(data) && data[end] == ',' && data[end+1] == ' ' && data[end+2] == '"' {
			i = end + 2 // as skein writes them
			continue
		}
		if i = next(data, end, ']', strict); i < 0 {
			return out, -1
		}
	}
	if i >= len(data) {
		return out, -1
	}
	return out, i + 1
}

// plainIDEnd is the index of the first byte from i that is a quote, a
// backslash, a control character or from 0x80, len(data) for none: eight
// bytes a step (the lowest flag is exact, borrows running only upward).
func plainIDEnd(data []byte, i int) int {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(data); i += 8 {
		x := binary.LittleEndian.Uint64(data[i:])
		q, b := x^(lsb*'"'), x^(lsb*'\\')
		if m := ((x-lsb*0x20)&^x | (q-lsb)&^q | (b-lsb)&^b | x) & msb; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(data); i++ {
		if c := data[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			return i
		}
	}
	return i
}

// Strings read with jscan.StringShared share the line's memory. That is
// safe because every session's files are read into buffers of its own
// (ReadFiles, and readDharaEntries in store), and nothing writes them.
// TestValuesOutliveSession checks it.

// parseLines reads the archive's lines and then the working file's, in
// parallel chunks when they are large, each chunk straight into its own
// region of one slice.
func parseLines(archive, working []byte, diags *[]model.Diagnostic) []Entry {
	// More parts than cores: tree.json is read beside them.
	return par.ParseLines([][]byte{archive, working}, 4*runtime.GOMAXPROCS(0), func(p par.Part, out []Entry) (int, []model.Diagnostic) {
		return parseChunk(p.Data, out, p.Line, p.Off, p.File == 0, p.Last)
	}, func(d []model.Diagnostic, _ int) { *diags = append(*diags, d...) })
}

var nl = []byte{'\n'}

// parseChunk parses the lines of data into out (a slot for each) and
// returns how many it filled.
func parseChunk(data []byte, out []Entry, lineNo, off int, archived, last bool) (int, []model.Diagnostic) {
	var diags []model.Diagnostic
	file := EntriesFile
	if archived {
		file = ArchiveFile
	}
	n := 0
	var ids idArena
	for lineNo--; len(data) > 0; {
		lineNo++
		start := off
		line, rest, ended := bytes.Cut(data, nl)
		data, off = rest, off+len(line)
		if ended {
			off++
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if isBlank(line) {
			continue
		}
		line = line[:len(line):len(line)] // an append to it must not write the file's buffer
		e := &out[n]
		err := parseEntry(e, line)
		if err == nil {
			e.ID = ids.copy(e.ID)
		}
		if err != nil {
			*e = Entry{}
			diags = append(diags, model.Diagnostic{File: file, Line: lineNo, Msg: jscan.Malformed(err, last && len(data) == 0)})
			continue
		}
		e.Line, e.Off, e.Archived = lineNo, start, archived
		n++
	}
	return n, diags
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

// types are the entry types' names, so that an entry's Type is one of
// them rather than a string of its line.
var types = map[string]string{}

func init() {
	for t := range kinds {
		types[t] = t
	}
}

// canonType is an entry type read from a line as one of the types' own
// strings (so that the line's memory is not held by it), with its code and
// kind: a switch, not maps, for it runs once a line.
func canonType(t string) (string, entryType, model.EntryKind) {
	switch t {
	case TypeMessage:
		return TypeMessage, tMessage, model.EntryMessage
	case TypeToolCall:
		return TypeToolCall, tToolCall, model.EntryMessage
	case TypeToolResult:
		return TypeToolResult, tToolResult, model.EntryMessage
	case TypeSystem:
		return TypeSystem, tSystem, model.EntryMessage
	case TypeCompaction:
		return TypeCompaction, tCompaction, model.EntryCompaction
	case TypeCustom:
		return TypeCustom, tOther, model.EntryCustom
	}
	if c, ok := types[t]; ok {
		return c, tOther, kinds[c]
	}
	return t, tOther, kinds[t]
}

// parseEntry reads the members of a line that the session needs into e.
func parseEntry(e *Entry, line []byte) error {
	e.Raw = line
	it := jscan.Object(line)
	for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
		if !jscan.IsString(v) {
			if string(v) == "true" && it.Name(k) == "synthetic" {
				e.synthetic = true
			}
			continue
		}
		var dst *string
		switch it.Name(k) {
		case "id":
			dst = &e.ID
			e.idPlain = len(v) >= 2 && jscan.Plain(v[1:len(v)-1]) // a valid literal: no quote or control byte either
		case "type":
			t, _ := jscan.StringShared(v)
			e.Type, e.code, e.kind = canonType(t)
			continue
		case "role":
			dst = &e.Role
		case "timestamp":
			dst = &e.Timestamp
		case "parentMessageId", "callId", "targetId":
			dst = &e.Ref
		case "toolName":
			dst = &e.ToolName
		default:
			continue
		}
		*dst, _ = jscan.StringShared(v)
	}
	if err := it.Err(); err != nil {
		if err == jscan.ErrNotObject {
			return fmt.Errorf("line is JSON but not an entry object")
		}
		return err
	}
	if e.ID != "" {
		e.hash = idHash(e.ID)
	}
	switch e.Type {
	case TypeToolCall:
		e.Role = model.RoleAssistant
	case TypeToolResult:
		e.Role = model.RoleToolResult
	case TypeSystem:
		e.Role = model.RoleSystem
	case TypeMessage:
		switch e.Role {
		case model.RoleUser:
			e.Role = model.RoleUser
		case model.RoleAssistant:
			e.Role = model.RoleAssistant
		}
	default:
		e.Role = ""
	}
	return nil
}

// link builds the entry tree from tree.json, the active branch and leaf,
// labels, and which calls belong to which message.
func (s *Session) link() {
	// The tree and the calls are built at once: each writes its own
	// slices, and both only read the entries and the id table.
	var wg sync.WaitGroup
	wg.Go(s.linkCalls)
	s.linkTree()
	wg.Wait()
}

// linkTree builds the entry tree from tree.json, the active branch and its
// leaf.
func (s *Session) linkTree() {
	n := len(s.Entries)
	s.parent = make([]int32, n)
	s.SetParents(s.parent)
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
	// Each branch's entries, resolved: a fork shares its parent's prefix,
	// and most ids follow the one before in the file.
	resolved := make(map[string][]int32, len(branches))
	for b := range branches {
		br := &branches[b]
		idx := make([]int32, len(br.EntryIDs))
		parent := resolved[br.ParentBranchID]
		var parentIDs []string
		if parent != nil {
			for k := range branches[:b] {
				if branches[k].ID == br.ParentBranchID {
					parentIDs = branches[k].EntryIDs
				}
			}
		}
		prev := -1
		for k, id := range br.EntryIDs {
			i := -1
			switch {
			case k < len(parent) && k < len(parentIDs) && parentIDs[k] == id:
				i = int(parent[k])
			case prev+1 < n && prev+1 >= 0 && s.Entries[prev+1].ID == id && id != "":
				i = prev + 1
			default:
				if j, ok := s.byID.get(id); ok {
					i = j
				}
			}
			idx[k] = int32(i)
			if i < 0 {
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
		if br.ID != "" {
			resolved[br.ID] = idx
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
}

// linkCalls finds each entry's type, labels, and which calls belong to
// which message.
func (s *Session) linkCalls() {
	n := len(s.Entries)
	s.typ = make([]entryType, n)
	s.firstCall = make([]int32, n)
	s.nextCall = make([]int32, n)
	s.owner = make([]int32, n)
	lastCall := make([]int32, n) // a message's last call so far
	s.labels = map[int]string{}
	for i := range s.Entries {
		s.firstCall[i], s.nextCall[i], s.owner[i] = -1, -1, -1
		s.typ[i] = s.Entries[i].code
	}
	for i := range s.Entries {
		e := &s.Entries[i]
		switch e.Type {
		case TypeToolCall:
			j, ok := int32(i-1), i > 0 && s.Entries[i-1].ID == e.Ref
			if !ok && i > 0 && s.Entries[i-1].Type == TypeToolCall && s.Entries[i-1].Ref == e.Ref && s.owner[i-1] >= 0 {
				j, ok = s.owner[i-1], true // the message's next call
			}
			if !ok {
				var x int
				x, ok = s.byID.get(e.Ref)
				j = int32(x)
			}
			if ok && s.Entries[j].Type == TypeMessage {
				s.owner[i] = j
				if s.firstCall[j] >= 0 {
					s.nextCall[lastCall[j]] = int32(i)
				} else {
					s.firstCall[j] = int32(i)
				}
				lastCall[j] = int32(i)
			}
		case TypeLabel:
			if j, ok := s.byID.get(e.Ref); ok {
				label, _ := jscan.String(jscan.Member(e.Raw, "label"))
				if label == "" {
					delete(s.labels, j)
				} else {
					s.labels[j] = label
				}
			}
		}
	}
}

// calls are the tool calls of message i, in entry order.
func (s *Session) calls(i int) []int {
	var out []int
	for c := s.firstCall[i]; c >= 0; c = s.nextCall[c] {
		out = append(out, int(c))
	}
	return out
}

// owned reports whether entry i is a tool call of a message entry.
func (s *Session) owned(i int) bool { return s.owner[i] >= 0 }

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
