package cursor

import "testing"

// TestBuildContextNoCompaction: a Cursor transcript has no compaction, and
// its context says so as every format's does (-1), not entry 0 (which is
// a user message).
func TestBuildContextNoCompaction(t *testing.T) {
	s, err := Parse([]byte(`{"role":"user","message":{"content":[{"type":"text","text":"<user_query>hi</user_query>"}]}}
{"role":"assistant","message":{"content":[{"type":"text","text":"hello"}]}}
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, leaf := range []int{s.Leaf(), -1} {
		ctx := s.BuildContext(leaf)
		if ctx.Compaction != -1 {
			t.Errorf("BuildContext(%d).Compaction = %d, want -1", leaf, ctx.Compaction)
		}
	}
	if ctx := s.BuildContext(s.Leaf()); len(ctx.Messages) != 2 || len(ctx.Path) != 2 {
		t.Errorf("BuildContext = %+v, want the two messages", ctx)
	}
}
