package model

import (
	"bytes"
	"fmt"
	"math"
	"sort"
)

// Header is a session file's first line.
type Header struct {
	Line          int
	Raw           []byte
	ID            string
	Cwd           string
	Timestamp     string
	ParentSession string // parentSession
	BranchedFrom  string // a v1 header's branchedFrom, which pi ignores
	Version       int    // 1 when absent
}

// Diagnostic is a problem found in a file, at a line (0 for the whole file).
type Diagnostic struct {
	Line int
	Msg  string
}

func (d Diagnostic) String() string {
	if d.Line == 0 {
		return d.Msg
	}
	return fmt.Sprintf("%d: %s", d.Line, d.Msg)
}

// Session is a parsed pi session: its header and its entries in file order,
// indexed into a tree. Build it with Parse.
type Session struct {
	Header  Header
	Entries []Entry // every entry but the header, in file order

	Diagnostics []Diagnostic
	// Problems are the diagnostics doctor reports: malformed lines, orphans,
	// duplicate ids, cycles, labels of missing entries.
	byID     map[string]int
	parent   []int // index of each entry's parent, -1 for a root
	children [][]int
	roots    []int
	labels   map[int]string // entry index -> label, resolved in file order
	labelTS  map[int]string
}

// NotSessionError says why a file is not a pi session.
type NotSessionError struct{ Reason string }

func (e *NotSessionError) Error() string { return "not a pi session: " + e.Reason }

// Parse reads a whole session file. Lines that are not JSON are skipped and
// reported, as pi skips them; a partial last line, CRLF endings and a UTF-8
// byte-order mark are tolerated. Old versions are migrated in memory. Parse
// never fails on a file with a valid header; without one it returns a
// *NotSessionError.
func Parse(data []byte) (*Session, error) {
	s := &Session{}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	headerSeen := false
	lineNo := 0
	for len(data) > 0 {
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
		e, err := ParseEntry(line, lineNo)
		if err != nil {
			msg := "malformed JSON"
			if len(data) == 0 {
				msg = "malformed JSON (partial last line)"
			}
			s.Diagnostics = append(s.Diagnostics, Diagnostic{lineNo, fmt.Sprintf("%s: %v", msg, err)})
			continue
		}
		if !headerSeen {
			headerSeen = true
			if e.Type != TypeSession || !e.HasID {
				return s, &NotSessionError{fmt.Sprintf("line %d is not a session header", lineNo)}
			}
			s.Header = parseHeader(&e)
			continue
		}
		if e.Type == TypeSession {
			s.Diagnostics = append(s.Diagnostics, Diagnostic{lineNo, "second session header ignored"})
			continue
		}
		if !e.Object {
			s.Diagnostics = append(s.Diagnostics, Diagnostic{lineNo, "line is JSON but not an entry object"})
		}
		s.Entries = append(s.Entries, e)
	}
	if !headerSeen {
		return s, &NotSessionError{"no session header"}
	}
	s.migrate()
	s.index()
	return s, nil
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v' {
			return false
		}
	}
	return true
}

func parseHeader(e *Entry) Header {
	h := Header{Line: e.Line, Raw: e.Raw, ID: e.ID, Timestamp: e.Timestamp, Version: 1}
	h.Cwd, _ = e.StringField("cwd")
	h.ParentSession, _ = e.StringField("parentSession")
	h.BranchedFrom, _ = e.StringField("branchedFrom")
	if v, ok := jsNumberValue(e.Field("version")); ok {
		h.Version = int(v)
	}
	return h
}

// migrate brings v1 and v2 entries to v3 in memory, as pi's
// migrateSessionEntries does, without touching Raw.
func (s *Session) migrate() {
	if s.Header.Version < 2 {
		// v1: a linear list. Ids are derived from the position so that they are
		// stable across runs (pi draws random ones).
		prev := ""
		for i := range s.Entries {
			e := &s.Entries[i]
			e.ID, e.HasID, e.ParentID, e.MigratedID = fmt.Sprintf("%08x", i+1), true, prev, true
			prev = e.ID
		}
	}
	if s.Header.Version < 3 {
		for i := range s.Entries {
			if e := &s.Entries[i]; e.Type == TypeMessage && e.Role == "hookMessage" {
				e.Role, e.RenamedRole = RoleCustom, true
			}
		}
	}
}

// FirstKeptEntryID returns a compaction's firstKeptEntryId, resolving a v1
// firstKeptEntryIndex (an index among the parsed lines, header at 0).
func (s *Session) FirstKeptEntryID(e *Entry) (string, bool) {
	if e.MigratedID {
		if idx, ok := jsNumberValue(e.Field("firstKeptEntryIndex")); ok {
			i := int(idx) - 1
			if idx == math.Trunc(idx) && i >= 0 && i < len(s.Entries) {
				return s.Entries[i].ID, true
			}
			return "", false
		}
	}
	return e.StringField("firstKeptEntryId")
}

// index builds the id map, parents, children, roots and labels.
func (s *Session) index() {
	n := len(s.Entries)
	s.byID = make(map[string]int, n)
	seen := make(map[string]int, n)
	for i := range s.Entries {
		e := &s.Entries[i]
		if !e.Object {
			continue
		}
		if !e.HasID {
			s.Diagnostics = append(s.Diagnostics, Diagnostic{e.Line, "entry has no id"})
			continue
		}
		if first, dup := seen[e.ID]; dup {
			s.Diagnostics = append(s.Diagnostics, Diagnostic{e.Line, fmt.Sprintf("duplicate id %s (first on line %d)", e.ID, s.Entries[first].Line)})
		} else {
			seen[e.ID] = i
		}
		s.byID[e.ID] = i // the last one wins, as in pi's byId map
	}
	s.parent = make([]int, n)
	for i := range s.Entries {
		e := &s.Entries[i]
		s.parent[i] = -1
		if e.ParentID == "" {
			continue
		}
		p, ok := s.byID[e.ParentID]
		switch {
		case !ok:
			s.Diagnostics = append(s.Diagnostics, Diagnostic{e.Line, fmt.Sprintf("unknown parent %s", e.ParentID)})
		case p == i || e.ParentID == e.ID:
			s.Diagnostics = append(s.Diagnostics, Diagnostic{e.Line, "entry is its own parent"})
		default:
			s.parent[i] = p
		}
	}
	s.breakCycles()
	s.children = make([][]int, n)
	s.roots = s.roots[:0]
	for i := range s.Entries {
		if p := s.parent[i]; p >= 0 {
			s.children[p] = append(s.children[p], i)
		} else {
			s.roots = append(s.roots, i)
		}
	}
	// pi's getTree sorts each node's children by timestamp, stably.
	ms := make([]float64, n)
	for i := range s.Entries {
		ms[i] = DateMs(s.Entries[i].Timestamp)
	}
	for _, c := range s.children {
		if len(c) > 1 {
			sort.SliceStable(c, func(a, b int) bool { return jsLess(ms[c[a]], ms[c[b]]) })
		}
	}
	s.labels = map[int]string{}
	s.labelTS = map[int]string{}
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Type != TypeLabel {
			continue
		}
		target, _ := e.StringField("targetId")
		t, ok := s.byID[target]
		if !ok {
			s.Diagnostics = append(s.Diagnostics, Diagnostic{e.Line, fmt.Sprintf("label of missing entry %s", target)})
			continue
		}
		if label, _ := e.StringField("label"); label != "" {
			s.labels[t], s.labelTS[t] = label, e.Timestamp
		} else {
			delete(s.labels, t)
			delete(s.labelTS, t)
		}
	}
	sort.SliceStable(s.Diagnostics, func(a, b int) bool { return s.Diagnostics[a].Line < s.Diagnostics[b].Line })
}

// jsLess orders as a JavaScript comparator a-b would, where NaN compares equal.
func jsLess(a, b float64) bool { return a < b }

// breakCycles makes the earliest entry of each parent cycle a root. pi's
// buildSessionContext loops forever on a cycle; skein reports and breaks it.
func (s *Session) breakCycles() {
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, len(s.Entries))
	var path []int
	for start := range s.Entries {
		if state[start] != unseen {
			continue
		}
		path = path[:0]
		i := start
		for i >= 0 && state[i] == unseen {
			state[i] = onPath
			path = append(path, i)
			i = s.parent[i]
		}
		if i >= 0 && state[i] == onPath {
			// path from i onwards is a cycle; cut at its earliest entry.
			k := len(path) - 1
			for path[k] != i {
				k--
			}
			first := i
			for _, j := range path[k:] {
				if j < first {
					first = j
				}
			}
			s.Diagnostics = append(s.Diagnostics, Diagnostic{s.Entries[first].Line,
				fmt.Sprintf("parent cycle through %d entries broken at %s", len(path)-k, s.Entries[first].ID)})
			s.parent[first] = -1
		}
		for _, j := range path {
			state[j] = done
		}
	}
}

// Len is the number of entries.
func (s *Session) Len() int { return len(s.Entries) }

// Index returns the index of the entry with the id (the last of duplicates).
func (s *Session) Index(id string) (int, bool) {
	i, ok := s.byID[id]
	return i, ok
}

// Leaf is the index of the active leaf: the last entry, -1 when there is none.
func (s *Session) Leaf() int { return len(s.Entries) - 1 }

// Parent returns the index of an entry's parent, -1 for a root.
func (s *Session) Parent(i int) int { return s.parent[i] }

// Children returns an entry's children in pi's order (by timestamp, stable).
func (s *Session) Children(i int) []int { return s.children[i] }

// Roots returns the entries without a parent, in file order.
func (s *Session) Roots() []int { return s.roots }

// Label returns the resolved label of an entry.
func (s *Session) Label(i int) (string, bool) {
	l, ok := s.labels[i]
	return l, ok
}

// LabelTimestamp returns when an entry's current label was set.
func (s *Session) LabelTimestamp(i int) string { return s.labelTS[i] }

// Path returns the indexes from the root down to entry i.
func (s *Session) Path(i int) []int {
	var path []int
	for ; i >= 0; i = s.parent[i] {
		path = append(path, i)
	}
	for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
		path[a], path[b] = path[b], path[a]
	}
	return path
}

// Name is the session's name: the latest session_info's, trimmed; "" when
// none or cleared.
func (s *Session) Name() string {
	for i := len(s.Entries) - 1; i >= 0; i-- {
		if e := &s.Entries[i]; e.Type == TypeSessionInfo {
			n, _ := e.StringField("name")
			return TrimJS(n)
		}
	}
	return ""
}
