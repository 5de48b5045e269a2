package claude

import (
	"os"
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
	const name = "6f1d2c3b-4a59-4e87-9d10-2b3c4d5e6f70.jsonl"
	write := func(p string) error { return os.WriteFile(p, synth.ClaudeLog(8<<20), 0o644) }
	formattest.ValuesOutlive(t, name, write, Open, func(s *Session) []any {
		leaf := s.Leaf()
		e := s.Entry(leaf)
		info := s.Info(name, 0)
		msg := s.Message(model.ContextMessage{Entry: leaf})
		return []any{e.ID, e.ParentID, e.Timestamp, e.Type, s.Raw(leaf), info.ID, info.Cwd, info.FirstMessage, msg.Text("")}
	})
}
