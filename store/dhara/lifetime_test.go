package dhara

import (
	"testing"
	"time"

	"skein/internal/formattest"
	"skein/internal/synth"
)

// TestValuesOutliveSession keeps strings and bytes read from a session
// (which share its files' buffers, see str), drops the session, has it
// collected, fills memory again, and reads them: they must be as they were.
// It fails if a change maps the files or reuses their buffers.
func TestValuesOutliveSession(t *testing.T) {
	write := func(dir string) error {
		return synth.DharaSession(dir, "/home/dev/big", 8<<20, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 5)
	}
	formattest.ValuesOutlive(t, "big", write, Open, func(s *Session) []any {
		last := &s.Entries[len(s.Entries)-1]
		branch := s.Tree.Branches[0].EntryIDs[len(s.Tree.Branches[0].EntryIDs)-1]
		return []any{last.ID, last.Timestamp, last.Type, last.Raw, branch}
	})
}
