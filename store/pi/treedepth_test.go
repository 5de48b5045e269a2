package pi

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"skein/model"
)

// branchySession is a session where every entry is a branch point: a leaf
// and a child that branches again, depth levels deep.
func branchySession(tb testing.TB, depth int) *Session {
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"019cadc6-0000-7000-8000-0000000000bb","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/x"}` + "\n")
	parent := "null"
	for i := range depth {
		for _, id := range []string{fmt.Sprintf("f%07x", i), fmt.Sprintf("e%07x", i)} {
			fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":"%s","timestamp":1772359201000}}`+"\n", id, parent, id)
		}
		parent = fmt.Sprintf(`"e%07x"`, i)
	}
	s, err := Parse([]byte(b.String()))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// Laying out a tree that branches at every level keeps one gutter a row,
// shared with the rows below, not a copy of every gutter above (pi's copy
// made a tree 20,000 levels deep need gigabytes before a line was drawn).
func TestTreeLayoutMemoryIsLinear(t *testing.T) {
	const depth = 2000
	s := branchySession(t, depth)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	v := s.Domain(model.SessionInfo{}).NewTreeView(s.Leaf(), model.FilterDefault)
	runtime.ReadMemStats(&after)
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(len(v.Rows))*1024; got > limit {
		t.Errorf("the layout of %d rows allocated %d bytes (at most %d)", len(v.Rows), got, limit)
	}
	// The deepest row draws its gutters as pi does: a line for each branch
	// still open above it.
	deepest := v.Rows[0]
	for _, r := range v.Rows {
		if r.Indent > deepest.Indent {
			deepest = r
		}
	}
	if p := v.Prefix(deepest); strings.Count(p, "│") < depth-2 {
		t.Errorf("the deepest row has %d gutter lines:\n%.300s", strings.Count(p, "│"), p)
	}
}

// BenchmarkTreeLinesBranchy draws every line of a tree branching 1,000
// levels deep (10 MB of text): the work is the text's, each column drawn
// once (it was looked up among every gutter of its row).
func BenchmarkTreeLinesBranchy(b *testing.B) {
	s := branchySession(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		v := s.Domain(model.SessionInfo{}).NewTreeView(s.Leaf(), model.FilterDefault)
		_ = v.Lines(v.NearestVisible(s.Leaf()), "")
	}
}
