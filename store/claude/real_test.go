package claude

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRealLogs: the real Claude Code 2.1.89-2.1.96 sessions of
// testdata/real (testdata/real/README.md) have no rewind, so each is one
// branch (but e827650c, whose first prompt "." got no reply and whose
// next prompt starts a chain of its own, parentUuid null: two), and every
// tool call is answered on the path: parallel results
// whose lines hang off their calls' blocks, a reply's blocks written
// between its results, and blocks written out of their chain's order.
// The aside_question sub-agent copies 76 of its parent's entries: no
// "repeats" problem for them.
func TestRealLogs(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/real/claude/*/*.jsonl")
	if len(files) < 4 {
		t.Fatalf("%d real sessions", len(files))
	}
	for _, p := range files {
		t.Run(filepath.Base(p)[:8], func(t *testing.T) {
			s, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			want := 1
			if filepath.Base(p)[:8] == "e827650c" {
				want = 2
			}
			if got := s.Info(p, 0).Branches; got != want {
				t.Errorf("%d branches, want %d", got, want)
			}
			if first := s.Info(p, 0).FirstMessage; strings.HasPrefix(first, "[Request interrupted") {
				t.Errorf("titled by Claude Code's interruption line: %q", first)
			}
			if why := unanswered(s, s.Leaf()); why != "" {
				t.Error(why)
			}
			for _, d := range s.Diagnostics {
				t.Errorf("doctor would report %s:%d %s", d.File, d.Line, d.Msg)
			}
		})
	}
}
