package droid

import (
	"strings"
	"testing"
)

// A cycle of parentIds is cut where the walk from the file's first entry
// into it comes back: there a root, the rest under it, and a diagnostic
// at that line.
func TestCycle(t *testing.T) {
	s, err := Parse([]byte(`{"type":"session_start","id":"s","title":"t","version":2,"cwd":"/p"}
{"type":"message","id":"a","parentId":"b","message":{"role":"user","content":"hi"}}
{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","content":"yes"}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Parent(1) != -1 || s.Parent(2) != 1 {
		t.Errorf("parents %d %d, want -1 1", s.Parent(1), s.Parent(2))
	}
	if len(s.Diagnostics) != 1 || s.Diagnostics[0].Line != 2 || !strings.Contains(s.Diagnostics[0].Msg, "cycle") {
		t.Errorf("diagnostics %v", s.Diagnostics)
	}
	if got := s.Roots(); len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Errorf("roots %v", got)
	}
}
