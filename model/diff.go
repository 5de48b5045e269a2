package model

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"

	"github.com/aymanbagabas/go-udiff"

	"skein/internal/jsdate"
)

// DiffEnd is one side of a comparison: a session and the entry its path
// ends at (its leaf, or an entry a person chose).
type DiffEnd struct {
	Session *Session
	Leaf    int
}

// Diff is two paths compared: what they share, and what each has alone.
type Diff struct {
	// SameSession: the two ends are in one session, and the shared part
	// is their common ancestors, entry by entry. Otherwise it is the
	// longest run of messages, from the start, that say the same thing
	// (role and text, tool calls by name and input).
	SameSession bool
	// Shared is the entries both paths share (one session) or the messages
	// (two sessions); SharedMessages the messages among them.
	Shared, SharedMessages int
	Left, Right            DiffSide
	// Files are the files either side changed after the shared part, by
	// path.
	Files []FileDiff
}

// DiffSide is one path of a comparison.
type DiffSide struct {
	DiffEnd
	Path []int // the entries from the root to Leaf
	// LastCommon is the last entry of Path both sides share, -1 when none;
	// Own is Path's entries after it.
	LastCommon int
	Own        []int
	Messages   []int      // the message entries of Own
	Calls      []DiffCall // the tool calls of Own, in order
	// Totals are Own's messages, tokens, cost and active time; First and
	// Last its first and last times (ms, NaN when none). All is the whole
	// path's.
	Totals      Totals
	First, Last float64
	All         Totals
}

// DiffCall is a tool call of one side.
type DiffCall struct {
	Entry  int
	Call   ToolCall
	Failed bool // its result was an error
}

// FileDiff is one file either side changed: its state at the end of each
// side (nil for a side that did not change it) and, when both did and both
// contents are known and differ, their unified diff.
type FileDiff struct {
	Path        string
	Left, Right *FileState
	Diff        string
}

// CompareSessions compares the paths of two ends.
func CompareSessions(a, b DiffEnd) *Diff {
	d := &Diff{Left: DiffSide{DiffEnd: a}, Right: DiffSide{DiffEnd: b}}
	d.Left.Path, d.Right.Path = a.Session.Path(a.Leaf), b.Session.Path(b.Leaf)
	d.SameSession = a.Session == b.Session
	var nl, nr int // how many entries of each path are shared
	if d.SameSession {
		for nl < len(d.Left.Path) && nl < len(d.Right.Path) && d.Left.Path[nl] == d.Right.Path[nl] {
			nl++
		}
		nr = nl
		d.Shared = nl
	} else {
		nl, nr, d.Shared = sharedMessages(a.Session, d.Left.Path, b.Session, d.Right.Path)
	}
	for _, side := range []struct {
		s *DiffSide
		n int
	}{{&d.Left, nl}, {&d.Right, nr}} {
		side.s.LastCommon = -1
		if side.n > 0 {
			side.s.LastCommon = side.s.Path[side.n-1]
		}
		side.s.Own = side.s.Path[side.n:]
	}
	// The shared part is walked once for one session: both sides start
	// from the state it leaves.
	var left, right *walker
	if d.SameSession {
		common := newWalker(a.Session)
		common.walk(d.Left.Path[:nl], false)
		d.SharedMessages = common.all.Messages
		left, right = common.fork(), common.fork()
	} else {
		left, right = newWalker(a.Session), newWalker(b.Session)
		left.walk(d.Left.Path[:nl], false)
		right.walk(d.Right.Path[:nr], false)
		d.SharedMessages = d.Shared
	}
	left.walk(d.Left.Own, true)
	right.walk(d.Right.Own, true)
	left.done(&d.Left)
	right.done(&d.Right)
	d.Files = fileDiffs(left, right)
	return d
}

// sharedMessages is the longest run of what was said, from the start of
// two paths, that is the same on both, and how many entries of each path
// it spans whole. What was said is compared as a stream of atoms (a
// message's text, each of its tool calls) rather than message
// by message, because formats cut a reply differently: Claude Code keeps
// a reply's text and calls in one message where Dhara makes each call an
// entry of its own. msgs is the message entries of a's shared part.
func sharedMessages(a *Session, pa []int, b *Session, pb []int) (na, nb, msgs int) {
	ka, ea := atomsOf(a, pa)
	kb, eb := atomsOf(b, pb)
	k := 0
	for k < len(ka) && k < len(kb) && sameAtom(ka[k], kb[k]) {
		k++
	}
	na, nb = spanned(ea, k, len(pa)), spanned(eb, k, len(pb))
	for _, i := range pa[:na] {
		if isMessageEntry(a.Entry(i).Kind) {
			msgs++
		}
	}
	return na, nb, msgs
}

// atom is one thing a message said.
type atom struct {
	role, kind, text string
	input            []byte
}

// atomsOf is what the entries of path said, in order, with the position
// in path of each atom's entry.
func atomsOf(s *Session, path []int) (atoms []atom, at []int) {
	for pos, i := range path {
		// Summaries are the agent's notes on what was said, which formats
		// keep differently (Dhara keeps no branch summary): not compared.
		if s.Entry(i).Kind != EntryMessage && s.Entry(i).Kind != EntryCustomMessage {
			continue
		}
		m := s.EntryMessage(i)
		if m.Role == RoleBranchSummary || m.Role == RoleCompactionSummary {
			continue
		}
		n := len(atoms)
		if t := m.Text("\n"); t != "" || m.Role == RoleToolResult {
			atoms = append(atoms, atom{role: m.Role, kind: "text", text: t})
		}
		for _, c := range m.ToolCalls() {
			atoms = append(atoms, atom{role: m.Role, kind: "call", text: c.Name, input: c.Input})
		}
		for range len(atoms) - n {
			at = append(at, pos)
		}
	}
	return atoms, at
}

func sameAtom(a, b atom) bool {
	return a.role == b.role && a.kind == b.kind && a.text == b.text && (a.kind != "call" || sameJSON(a.input, b.input))
}

// spanned is how many entries of a path the first k atoms cover whole:
// up to the entry of atom k-1, unless atom k is of that entry too.
func spanned(at []int, k, n int) int {
	if k == 0 {
		return 0
	}
	if k == len(at) {
		// Every atom is shared: entries after the last one said nothing.
		return at[k-1] + 1
	}
	if at[k] == at[k-1] {
		// The entry of the last shared atom says more: it is not shared.
		return at[k-1]
	}
	return at[k-1] + 1
}

// isMessageEntry reports whether entries of kind k are part of what was
// said: messages, summaries and an extension's messages.
func isMessageEntry(k EntryKind) bool {
	switch k {
	case EntryMessage, EntryCompaction, EntryBranchSummary, EntryCustomMessage:
		return true
	}
	return false
}

// sameJSON reports whether two JSON values are equal as values.
func sameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return bytes.Equal(ja, jb)
}

// walker goes along a path once: its totals, its calls and the files its
// calls leave.
type walker struct {
	s       *Session
	tally   *StatsTally
	all     Totals
	files   map[string]FileState
	touched map[string]bool // changed in the part of the path of one side only
	calls   []DiffCall
	msgs    []int
}

func newWalker(s *Session) *walker {
	return &walker{s: s, tally: NewStatsTally(), files: map[string]FileState{}, touched: map[string]bool{}}
}

// fork is a walker that goes on from where w is, on a side of its own.
func (w *walker) fork() *walker {
	f := newWalker(w.s)
	f.all = w.all
	f.files = make(map[string]FileState, len(w.files))
	for k, v := range w.files {
		f.files[k] = v
	}
	// The side's active time starts at the last shared entry.
	f.tally.prev = w.tally.prev
	return f
}

// walk adds the entries of path, in order; own says they are one side's
// alone (its totals, calls and touched files), not the shared part.
func (w *walker) walk(path []int, own bool) {
	type pending struct {
		id      string
		changes []FileChange
	}
	var changes []pending
	failed := map[string]bool{}
	cwd := w.s.Info.Cwd
	for _, i := range path {
		e := w.s.Entry(i)
		ms := jsdate.Parse(e.Timestamp)
		if !isMessageEntry(e.Kind) {
			if own {
				w.tally.End(ms, w.tally.Begin(ms))
			}
			continue
		}
		// Only an assistant's blocks hold calls: the rest are read without
		// theirs (a tool's result, often a whole file, is most of a log).
		var msg Message
		if e.Kind == EntryMessage && e.Role != RoleAssistant {
			msg = w.s.MessageHead(ContextMessage{Entry: i, Kind: KindMessage})
		} else {
			msg = w.s.EntryMessage(i)
		}
		var d Totals
		if own {
			d = w.tally.Begin(ms)
			w.msgs = append(w.msgs, i)
		} else if ms == ms {
			w.tally.prev = ms
		}
		d.AddMessage(msg.Role)
		if u := msg.Usage; u != nil {
			ut := UsageTotals{TokensIn: u.Input, TokensOut: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite, Cost: u.Cost}
			if !u.HasCost {
				ut = PriceUsage(msg.Model, ut)
			}
			d.AddUsage(ut)
		}
		for _, b := range msg.Blocks {
			if b.Type != BlockToolCall {
				continue
			}
			d.ToolCalls++
			if own {
				w.calls = append(w.calls, DiffCall{Entry: i, Call: b.Call})
			}
			if ch := FileChanges(b.Call, cwd); len(ch) > 0 {
				changes = append(changes, pending{b.Call.ID, ch})
			}
		}
		if msg.Role == RoleToolResult && msg.IsError {
			failed[msg.ToolCallID] = true
		}
		if msg.Role == RoleAssistant && msg.Error != "" {
			d.Errors++
		}
		w.all.Add(d)
		if own {
			w.tally.End(ms, d)
		}
	}
	for k := range w.calls {
		w.calls[k].Failed = failed[w.calls[k].Call.ID]
	}
	for _, p := range changes {
		if p.id != "" && failed[p.id] {
			continue
		}
		for _, ch := range p.changes {
			w.files[ch.Path] = w.files[ch.Path].Apply(ch)
			if own {
				w.touched[ch.Path] = true
			}
		}
	}
}

// done fills side with what the walk found.
func (w *walker) done(side *DiffSide) {
	side.Messages, side.Calls = w.msgs, w.calls
	side.Totals, side.All = w.tally.Totals, w.all
	side.First, side.Last = w.tally.First, w.tally.Last
	if side.Totals.Messages == 0 {
		side.First, side.Last = math.NaN(), math.NaN()
	}
}

// fileDiffs are the files either side changed alone, by path.
func fileDiffs(l, r *walker) []FileDiff {
	var paths []string
	for p := range l.touched {
		paths = append(paths, p)
	}
	for p := range r.touched {
		if !l.touched[p] {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	out := make([]FileDiff, 0, len(paths))
	for _, p := range paths {
		fd := FileDiff{Path: p}
		if l.touched[p] {
			st := l.files[p]
			st.Path = p
			fd.Left = &st
		}
		if r.touched[p] {
			st := r.files[p]
			st.Path = p
			fd.Right = &st
		}
		if fd.Left != nil && fd.Right != nil && fd.Left.Known && fd.Right.Known && fd.Left.Content != fd.Right.Content {
			fd.Diff = udiff.Unified("left/"+trimSlash(p), "right/"+trimSlash(p), fd.Left.Content, fd.Right.Content)
		}
		out = append(out, fd)
	}
	return out
}

func trimSlash(p string) string {
	for len(p) > 0 && p[0] == '/' {
		p = p[1:]
	}
	return p
}
