package pi

import (
	"path/filepath"
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
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := synth.Session(path, "/home/dev/big", 10<<20, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 5); err != nil {
		t.Fatal(err)
	}
	formattest.ValuesOutlive(t, func() func() []string {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		last := &s.Entries[len(s.Entries)-1]
		id, ts, raw, msg := last.ID, last.Timestamp, last.Raw, last.Message
		return func() []string { return []string{id, ts, string(raw), string(msg)} }
	})
}
