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

// sharedMessages is the longest run of messages from the start of two
// paths that say the same, and how many entries of each path it spans.
func sharedMessages(a *Session, pa []int, b *Session, pb []int) (na, nb, msgs int) {
	i, j := 0, 0
	for {
		for i < len(pa) && !isMessageEntry(a.Entry(pa[i]).Kind) {
			i++
		}
		for j < len(pb) && !isMessageEntry(b.Entry(pb[j]).Kind) {
			j++
		}
		if i == len(pa) || j == len(pb) {
			return na, nb, msgs
		}
		ma, mb := a.EntryMessage(pa[i]), b.EntryMessage(pb[j])
		if !SameMessage(&ma, &mb) {
			return na, nb, msgs
		}
		i, j, msgs = i+1, j+1, msgs+1
		na, nb = i, j
	}
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

// SameMessage reports whether two messages say the same: the same role,
// the same text and the same tool calls (name and input, whatever the
// order of the input's keys). Thinking, times and usage are not compared:
// a session and its import say the same thing whatever they kept of them.
func SameMessage(a, b *Message) bool {
	if a.Role != b.Role || a.Text("\n") != b.Text("\n") || a.Summary != b.Summary {
		return false
	}
	ca, cb := a.ToolCalls(), b.ToolCalls()
	if len(ca) != len(cb) {
		return false
	}
	for k := range ca {
		if ca[k].Name != cb[k].Name || !sameJSON(ca[k].Input, cb[k].Input) {
			return false
		}
	}
	return true
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
		msg := w.s.EntryMessage(i)
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
