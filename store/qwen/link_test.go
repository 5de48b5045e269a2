package qwen

import (
	"strings"
	"testing"
)

// A cycle of parentUuids is cut where the walk from the file's first
// record into it comes back: there a root, the rest under it, and a
// diagnostic at that line.
func TestCycle(t *testing.T) {
	s, err := Parse([]byte(`{"uuid":"y1","parentUuid":"y2","sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"y1"}]}}
{"uuid":"y2","parentUuid":"y1","sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"y2"}]}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Parent(0) != -1 || s.Parent(1) != 0 {
		t.Errorf("parents %d %d, want -1 0", s.Parent(0), s.Parent(1))
	}
	var cycles []int
	for _, d := range s.Diagnostics {
		if strings.Contains(d.Msg, "cycle") {
			cycles = append(cycles, d.Line)
		}
	}
	if len(cycles) != 1 || cycles[0] != 1 {
		t.Errorf("cycle diagnostics at %v, want [1]: %v", cycles, s.Diagnostics)
	}
}
