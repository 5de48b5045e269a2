package pi

import (
	"testing"
	"time"

	"skein/internal/formattest"
	"skein/internal/synth"
)

// TestValuesOutliveSession keeps strings and bytes read from a session large
// enough to be read as the largest are (past hugeMin on Linux), drops the
// session, has it collected,
// and reads them again: `session compact` does this with the leaf's id, and
// faulted when the memory went with the session.
func TestValuesOutliveSession(t *testing.T) {
	write := func(path string) error {
		return synth.Session(path, "/home/dev/big", 10<<20, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 5)
	}
	formattest.ValuesOutlive(t, "big.jsonl", write, Open, func(s *Session) []any {
		last := &s.Entries[len(s.Entries)-1]
		return []any{last.ID, last.Timestamp, last.Raw, last.Message}
	})
}
