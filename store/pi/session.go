package pi

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"sync"
	"unsafe"

	"skein/internal/hugemem"
	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/internal/par"
	"skein/model"
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

// Diagnostic is a problem found in a file, at a line.
type Diagnostic = model.Diagnostic

// Session is a parsed pi session: its header and its entries in file order,
// indexed into a tree. Build it with Parse.
type Session struct {
	Header  Header
	Entries []Entry // every entry but the header, in file order

	Diagnostics []Diagnostic
	// Problems are the diagnostics doctor reports: malformed lines, orphans,
	// duplicate ids, cycles, labels of missing entries.
	byID   idIndex
	parent []int // index of each entry's parent, -1 for a root
	// children and roots, built by links when first needed.
	linksOnce sync.Once
	children  [][]int
	roots     []int
	labels    map[int]string // entry index -> label, resolved in file order
	// What pi's /tree reads of the assistant messages, found once
	// (treeFacts): their tool calls by id, and which it hides.
	treeOnce  sync.Once
	toolCalls map[string]toolCallInfo
	hidden    []bool
}

// NotSessionError says why a file is not a pi session.
type NotSessionError struct{ Reason string }

func (e *NotSessionError) Error() string { return "not a pi session: " + e.Reason }

// Parse reads a whole session file. Lines that are not JSON are skipped and
// reported, as pi skips them; a partial last line, CRLF endings and a UTF-8
// byte-order mark are tolerated. Old versions are migrated in memory. Parse
// never fails on a file with a valid header; without one it returns a
// *NotSessionError. Large files are parsed on every core, each part straight
// into its own region of one slice.
func Parse(data []byte) (*Session, error) {
	s := &Session{}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	chunks := par.SplitLines(data, 4*runtime.GOMAXPROCS(0)) // more parts than cores: the load balances
	lines := make([]int, len(chunks))                       // lines begun in each chunk
	parallel(len(chunks), func(k int) {
		c := chunks[k]
		lines[k] = bytes.Count(c, []byte{'\n'})
		if len(c) > 0 && c[len(c)-1] != '\n' {
			lines[k]++
		}
	})
	offsets := make([]int, len(chunks)+1)
	for k, n := range lines {
		offsets[k+1] = offsets[k] + n
	}
	all := make([]Entry, offsets[len(chunks)])
	if len(all) > 0 {
		// First touching fresh memory, page by page, was an eighth of parsing.
		// The byte view is only handed to madvise, which reads its address
		// and length: nothing is read or written through it, and the
		// entries (which hold pointers) stay typed for the collector.
		hugemem.Advise(unsafe.Slice((*byte)(unsafe.Pointer(&all[0])), len(all)*int(unsafe.Sizeof(all[0]))))
	}
	results := make([]chunkResult, len(chunks))
	parallel(len(chunks), func(k int) {
		results[k] = parseChunk(chunks[k], all[offsets[k]:offsets[k+1]], offsets[k]+1, k == 0, k == len(chunks)-1)
	})
	// Close the gaps left by blank and malformed lines, and gather what
	// the chunks noted for the index, by index in s.Entries (header excluded).
	n := 0
	extraHeaders := false
	var g gathered
	total := 0
	for k := range results {
		total += len(results[k].g.hex)
	}
	g.hex = make([]idPair, 0, total)
	for k := range results {
		r := &results[k]
		if n != offsets[k] {
			copy(all[n:], all[offsets[k]:offsets[k]+r.n])
		}
		g.add(&r.g, n-1)
		n += r.n
		s.Diagnostics = append(s.Diagnostics, r.diags...)
		extraHeaders = extraHeaders || r.headers > 1 || (k > 0 && r.headers > 0)
	}
	all = all[:n]
	if n == 0 {
		return s, &NotSessionError{"no session header"}
	}
	if h := &all[0]; h.Type != TypeSession || !h.HasID {
		return s, &NotSessionError{fmt.Sprintf("line %d is not a session header", h.Line)}
	}
	s.Header = parseHeader(&all[0])
	s.Entries = all[1:]
	if extraHeaders {
		kept := s.Entries[:0]
		for _, e := range s.Entries {
			if e.Type == TypeSession {
				s.Diagnostics = append(s.Diagnostics, Diagnostic{Line: e.Line, Msg: "second session header ignored"})
				continue
			}
			kept = append(kept, e)
		}
		s.Entries = kept
	}
	s.migrate()
	if extraHeaders || s.Header.Version < 2 {
		// Entries were dropped, or the v1 migration gave them their ids:
		// what the chunks noted no longer holds.
		g = gathered{}
		for i := range s.Entries {
			var prev *Entry
			if i > 0 {
				prev = &s.Entries[i-1]
			}
			g.note(&s.Entries[i], prev, i)
		}
	}
	s.index(&g)
	return s, nil
}

// parallel runs f(0..n-1) at once and waits; a panic in one of them
// (a fault in a mapped file, see workerPanic) is raised again here.
func parallel(n int, f func(k int)) {
	if n == 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	wp := newWorkerPanic()
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer wp.guard()()
			f(k)
		}()
	}
	wg.Wait()
	wp.rethrow()
}

type chunkResult struct {
	n       int // entries parsed into the chunk's region
	diags   []Diagnostic
	headers int // session headers seen
	g       gathered
}

// parseChunk parses the lines of one chunk into out, which has a slot for
// each; lineNo is the chunk's first line number and last says the chunk ends
// the file, so that a malformed last line is reported as partial.
func parseChunk(data []byte, out []Entry, lineNo int, first, last bool) chunkResult {
	var r chunkResult
	r.g.hex = make([]idPair, 0, len(out))
	for lineNo--; len(data) > 0; {
		lineNo++
		var line []byte
		line, data, _ = bytes.Cut(data, []byte{'\n'})
		line = bytes.TrimSuffix(line, []byte("\r"))
		if isBlank(line) {
			continue
		}
		e := &out[r.n]
		if err := parseEntryInto(e, line, lineNo); err != nil {
			*e = Entry{}
			r.diags = append(r.diags, Diagnostic{Line: lineNo, Msg: jscan.Malformed(err, last && len(data) == 0)})
			continue
		}
		if e.Type == TypeSession {
			r.headers++
		}
		if !e.Object {
			r.diags = append(r.diags, Diagnostic{Line: lineNo, Msg: "line is JSON but not an entry object"})
		}
		// While the entry is in cache, what the index needs of it. The first
		// file's header has no place in the index: the entry after it is
		// looked up, as the first of every chunk is.
		var prev *Entry
		if r.n > 0 && !(first && r.n == 1) {
			prev = &out[r.n-1]
		}
		r.g.note(e, prev, r.n)
		r.n++
	}
	return r
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
			e.setKeys()
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

// gathered is what indexing needs from a pass over the entries, noted
// while each is parsed (and in cache), by index.
type gathered struct {
	hex                  []idPair // ids of eight hex digits
	strIDs, noID, labels []int32  // other ids, objects without one, labels
	roots, lookups       []int32  // no parent; a parent other than the entry before
}

// note notes entry e at index i, whose predecessor is prev (nil for none or
// for one not to be trusted). pi appends each entry as a child of the one
// before: unless an id repeats (which index checks), that one is the parent.
func (g *gathered) note(e, prev *Entry, i int) {
	if e.Type == TypeLabel {
		g.labels = append(g.labels, int32(i))
	}
	switch {
	case e.ParentID == "":
		g.roots = append(g.roots, int32(i))
	case prev == nil || !prev.HasID || !sameID(e.ParentID, e.parentKey, prev.ID, prev.idKey):
		g.lookups = append(g.lookups, int32(i))
	}
	switch {
	case !e.Object:
	case !e.HasID:
		g.noID = append(g.noID, int32(i))
	case e.idKey.hex:
		g.hex = append(g.hex, idPair{e.idKey.n, int32(i)})
	default:
		g.strIDs = append(g.strIDs, int32(i))
	}
}

// add appends o's notes with their indexes moved by off, dropping those
// that fall before 0 (the header).
func (g *gathered) add(o *gathered, off int) {
	shift := func(dst, src []int32) []int32 {
		for _, i := range src {
			if j := int(i) + off; j >= 0 {
				dst = append(dst, int32(j))
			}
		}
		return dst
	}
	for _, p := range o.hex {
		if j := int(p.i) + off; j >= 0 {
			g.hex = append(g.hex, idPair{p.key, int32(j)})
		}
	}
	g.strIDs, g.noID, g.labels = shift(g.strIDs, o.strIDs), shift(g.noID, o.noID), shift(g.labels, o.labels)
	g.roots, g.lookups = shift(g.roots, o.roots), shift(g.lookups, o.lookups)
}

// index builds the id map, parents and labels from what g noted.
func (s *Session) index(g *gathered) {
	n := len(s.Entries)
	s.byID = newIDIndex(n)
	var problems []indexProblem
	for _, i := range g.noID {
		problems = append(problems, indexProblem{int(i), -1})
	}
	for _, i := range g.strIDs {
		if prev, dup := s.byID.putString(s.Entries[i].ID, int(i)); dup {
			problems = append(problems, indexProblem{int(i), prev})
		}
	}
	// The last one wins, as in pi's byId map.
	problems = s.byID.putHex(g.hex, problems)
	dups := false
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b indexProblem) int { return a.entry - b.entry })
		for _, p := range problems {
			e := &s.Entries[p.entry]
			if p.prev < 0 {
				s.Diagnostics = append(s.Diagnostics, Diagnostic{Line: e.Line, Msg: "entry has no id"})
				continue
			}
			dups = true
			s.Diagnostics = append(s.Diagnostics, Diagnostic{Line: e.Line, Msg: fmt.Sprintf("duplicate id %s (also on line %d)", e.ID, s.Entries[p.prev].Line)})
		}
	}
	s.parent = make([]int, n)
	for i := range s.parent {
		s.parent[i] = i - 1
	}
	for _, i := range g.roots {
		s.parent[i] = -1
	}
	lookups := g.lookups
	if dups {
		// The entry before may not be the one an id names: look every parent up.
		lookups = lookups[:0]
		for i := range s.Entries {
			if s.Entries[i].ParentID != "" {
				lookups = append(lookups, int32(i))
			}
		}
	}
	for _, i := range lookups {
		e := &s.Entries[i]
		s.parent[i] = -1
		p, ok := s.byID.get(e.ParentID)
		switch {
		case !ok:
			s.Diagnostics = append(s.Diagnostics, Diagnostic{Line: e.Line, Msg: fmt.Sprintf("unknown parent %s", e.ParentID)})
		case p == int(i) || e.ParentID == e.ID:
			s.Diagnostics = append(s.Diagnostics, Diagnostic{Line: e.Line, Msg: "entry is its own parent"})
		default:
			s.parent[i] = p
		}
	}
	s.breakCycles()
	s.labels = map[int]string{}
	for _, i := range g.labels {
		e := &s.Entries[i]
		target, _ := e.StringField("targetId")
		t, ok := s.byID.get(target)
		if !ok {
			s.Diagnostics = append(s.Diagnostics, Diagnostic{Line: e.Line, Msg: fmt.Sprintf("label of missing entry %s", target)})
			continue
		}
		if label, _ := e.StringField("label"); label != "" {
			s.labels[t] = label
		} else {
			delete(s.labels, t)
		}
	}
	sort.SliceStable(s.Diagnostics, func(a, b int) bool { return s.Diagnostics[a].Line < s.Diagnostics[b].Line })
}

// links builds the children of every entry and the roots, once, when first
// asked for: opening a session for its context needs neither.
func (s *Session) links() { s.linksOnce.Do(s.buildLinks) }

func (s *Session) buildLinks() {
	n := len(s.Entries)
	// Every child list is a part of one array (capped, so that appending to
	// one copies it): one allocation, not one per entry with children.
	s.children = make([][]int, n)
	end := make([]int, n+1) // end[p+1]: where p's children end, once filled
	for i := range s.Entries {
		if p := s.parent[i]; p >= 0 {
			end[p+1]++
		} else {
			s.roots = append(s.roots, i)
		}
	}
	for p := 1; p <= n; p++ {
		end[p] += end[p-1]
	}
	flat := make([]int, end[n])
	for i := range s.Entries {
		if p := s.parent[i]; p >= 0 {
			flat[end[p]] = i
			end[p]++
		}
	}
	for p := n - 1; p >= 0; p-- {
		start := 0
		if p > 0 {
			start = end[p-1]
		}
		if start < end[p] {
			s.children[p] = flat[start:end[p]:end[p]]
		}
	}
	// pi's getTree sorts each node's children by timestamp, stably. Only
	// branch points need their children's times.
	var ms map[int]float64
	at := func(i int) float64 {
		t, ok := ms[i]
		if !ok {
			t = jsdate.Parse(s.Entries[i].Timestamp)
			ms[i] = t
		}
		return t
	}
	for _, c := range s.children {
		if len(c) > 1 {
			if ms == nil {
				ms = map[int]float64{}
			}
			sort.SliceStable(c, func(a, b int) bool { return jsLess(at(c[a]), at(c[b])) })
		}
	}
}

// idIndex maps entry ids to indexes. pi's ids are eight lowercase hex
// digits: those go in an open-addressing table keyed by their value, several
// times faster than a map of strings at 100,000 entries; any other id goes in
// a map.
type idIndex struct {
	slots []idSlot
	shift uint
	str   map[string]int32
}

// idSlot keeps key and value together: one cache miss a probe.
type idSlot struct {
	key uint32
	val int32 // index+1; 0 marks an empty slot
}

func newIDIndex(n int) idIndex {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	return idIndex{slots: make([]idSlot, size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
}

func (x *idIndex) slot(k uint32) int {
	return int((uint64(k) * 0x9E3779B97F4A7C15) >> x.shift)
}

// appendHexID appends the JSON string of an id hexID read.
func appendHexID(dst []byte, k uint32) []byte {
	const digits = "0123456789abcdef"
	return append(dst, '"', digits[k>>28], digits[k>>24&0xf], digits[k>>20&0xf], digits[k>>16&0xf],
		digits[k>>12&0xf], digits[k>>8&0xf], digits[k>>4&0xf], digits[k&0xf], '"')
}

// hexID reads an id of eight lowercase hex digits as a number, eight bytes
// at once and without a branch a digit (a digit or a letter, at random, was
// a mispredicted branch half the time).
func hexID(id string) (uint32, bool) {
	if len(id) != 8 {
		return 0, false
	}
	x := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(id), 8))
	if x&msb8 != 0 {
		return 0, false
	}
	// With every top bit set first, subtracting c from a byte borrows from
	// none of its neighbours, and leaves the top bit set exactly when the
	// byte is at least c.
	ge := func(c uint64) uint64 { return ((x | msb8) - lsb8*c) & msb8 }
	if (ge('0')&^ge('9'+1))|(ge('a')&^ge('f'+1)) != msb8 {
		return 0, false
	}
	// A digit's value is its low nibble; a letter's (bit 6 set) nine more.
	v := x&(lsb8*0x0f) + (x>>6&lsb8)*9
	// Pack the nibbles, first character highest: pairs into bytes 0, 2, 4, 6.
	v = (v<<4 | v>>8) & 0x00ff00ff00ff00ff
	return uint32(v&0xff)<<24 | uint32(v>>16&0xff)<<16 | uint32(v>>32&0xff)<<8 | uint32(v>>48&0xff), true
}

const (
	lsb8 = 0x0101010101010101
	msb8 = 0x8080808080808080
)

func (x *idIndex) get(id string) (int, bool) {
	if k, ok := hexID(id); ok && x.slots != nil {
		mask := len(x.slots) - 1
		for j := x.slot(k); x.slots[j].val != 0; j = (j + 1) & mask {
			if x.slots[j].key == k {
				return int(x.slots[j].val) - 1, true
			}
		}
		return 0, false
	}
	i, ok := x.str[id]
	return int(i), ok
}

// idPair is a hex id and the index of its entry.
type idPair struct {
	key uint32
	i   int32
}

// indexProblem is an entry without an id (prev < 0) or whose id entry prev
// already had.
type indexProblem struct{ entry, prev int }

// putHex records each pair, later ones winning, and adds a problem for each
// id already recorded. The pairs are first partitioned by the part of the
// table their slot falls in, keeping their order, so that each part's
// inserts stay in cache: in file order every insert was a cache miss (150 ms
// for a million entries on this machine, against 25 ms).
func (x *idIndex) putHex(pairs []idPair, problems []indexProblem) []indexProblem {
	const partBits = 6
	size := bits.TrailingZeros(uint(len(x.slots)))
	shift := uint(size - min(size, partBits))
	var starts [1<<partBits + 1]int
	for _, p := range pairs {
		starts[x.slot(p.key)>>shift+1]++
	}
	for b := 1; b < len(starts); b++ {
		starts[b] += starts[b-1]
	}
	parted := make([]idPair, len(pairs))
	for _, p := range pairs {
		b := x.slot(p.key) >> shift
		parted[starts[b]] = p
		starts[b]++
	}
	mask := len(x.slots) - 1
	for _, p := range parted {
		j := x.slot(p.key)
		for ; x.slots[j].val != 0; j = (j + 1) & mask {
			if x.slots[j].key == p.key {
				break
			}
		}
		if x.slots[j].val != 0 {
			problems = append(problems, indexProblem{int(p.i), int(x.slots[j].val) - 1})
		}
		x.slots[j] = idSlot{p.key, p.i + 1}
	}
	return problems
}

// putString records an id that is not eight hex digits at i and returns the
// index it had before, if any.
func (x *idIndex) putString(id string, i int) (int, bool) {
	if x.str == nil {
		x.str = map[string]int32{}
	}
	prev, had := x.str[id]
	x.str[id] = int32(i)
	return int(prev), had
}

// jsLess orders as a JavaScript comparator a-b would, where NaN compares equal.
func jsLess(a, b float64) bool { return a < b }

// breakCycles makes the earliest entry of each parent cycle a root. pi's
// buildSessionContext loops forever on a cycle; skein reports and breaks it.
func (s *Session) breakCycles() {
	model.BreakCycles(s.parent, true, func(first, length int) {
		s.Diagnostics = append(s.Diagnostics, Diagnostic{Line: s.Entries[first].Line, Msg: fmt.Sprintf("parent cycle through %d entries broken at %s", length, s.Entries[first].ID)})
	})
}

// Len is the number of entries.
func (s *Session) Len() int { return len(s.Entries) }

// Index returns the index of the entry with the id (the last of duplicates).
func (s *Session) Index(id string) (int, bool) { return s.byID.get(id) }

// Leaf is the index of the active leaf: the last entry, -1 when there is none.
func (s *Session) Leaf() int { return len(s.Entries) - 1 }

// Parent returns the index of an entry's parent, -1 for a root.
func (s *Session) Parent(i int) int { return s.parent[i] }

// Children returns an entry's children in pi's order (by timestamp, stable).
func (s *Session) Children(i int) []int { s.links(); return s.children[i] }

// Roots returns the entries without a parent, in file order.
func (s *Session) Roots() []int { s.links(); return s.roots }

// Label returns the resolved label of an entry.
func (s *Session) Label(i int) (string, bool) {
	l, ok := s.labels[i]
	return l, ok
}

// Path returns the indexes from the root down to entry i.
func (s *Session) Path(i int) []int {
	// Count, then fill from the end: walking the parents twice costs less
	// than growing a slice of 100,000 entries and reversing it.
	n := 0
	for j := i; j >= 0; j = s.parent[j] {
		n++
	}
	path := make([]int, n)
	for j := i; j >= 0; j = s.parent[j] {
		n--
		path[n] = j
	}
	return path
}

// Depth is the number of entries on the path from the root to entry i,
// i included (0 for -1): len(Path(i)) without making the path.
func (s *Session) Depth(i int) int {
	n := 0
	for ; i >= 0; i = s.parent[i] {
		n++
	}
	return n
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
