package convert

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"skein/internal/synth"
	"skein/store"
)

// An import into Dhara resumes where its source does: the context at its
// leaf holds as many messages as the source's, for a Claude Code log with
// rewinds and two compactions and a Codex rollout with many (whose ranges,
// each naming only what no earlier range holds, must still hide all the
// earlier ranges hid).
func TestImportKeepsContext(t *testing.T) {
	dir := t.TempDir()
	claude := filepath.Join(dir, "6f1d2c3b-4a59-4e87-9d10-2b3c4d5e6f70.jsonl")
	os.WriteFile(claude, synth.ClaudeLog(6<<20), 0o600)
	codex := filepath.Join(dir, "rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl")
	synth.CodexRollout(codex, 3<<20)
	for _, src := range [][2]string{{claude, "claude"}, {codex, "codex"}} {
		s, err := OpenAs(src[0], src[1])
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out-"+src[1])
		r, err := ImportFile(src[0], Options{Format: src[1], To: "dhara", Out: out, Now: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		d, err := store.Open(r[0].Path)
		if err != nil {
			t.Fatal(err)
		}
		sc, dc := s.BuildContext(s.Leaf()), d.BuildContext(d.Leaf())
		if len(sc.Messages) != len(dc.Messages) || len(sc.Messages) < 100 {
			t.Errorf("%s: the source's context has %d messages, the import's %d", src[1], len(sc.Messages), len(dc.Messages))
		}
	}
}
