package claude

import (
	"os"
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/internal/synth"
	"skein/model"
)

// TestValuesOutlive keeps strings and bytes read from a session (which
// share its file's buffer, see str), drops the session, has it collected,
// fills memory again, and reads them: they must be as they were. It fails
// if a change maps the file or reuses its buffer.
func TestValuesOutlive(t *testing.T) {
	p := filepath.Join(t.TempDir(), "6f1d2c3b-4a59-4e87-9d10-2b3c4d5e6f70.jsonl")
	if err := os.WriteFile(p, synth.ClaudeLog(8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	formattest.ValuesOutlive(t, func() func() []string {
		s, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		leaf := s.Leaf()
		e := s.Entry(leaf)
		raw := s.Raw(leaf)
		info := s.Info(p, 0)
		msg := s.Message(model.ContextMessage{Entry: leaf})
		text := msg.Text("")
		return func() []string {
			return []string{e.ID, e.ParentID, e.Timestamp, e.Type, string(raw), info.ID, info.Cwd, info.FirstMessage, text}
		}
	})
}
