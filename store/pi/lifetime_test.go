package pi

import (
	"bytes"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

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
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	last := &s.Entries[len(s.Entries)-1]
	id, ts, raw, msg := last.ID, last.Timestamp, last.Raw, last.Message
	want := []string{strings.Clone(id), strings.Clone(ts), string(raw), string(msg)}
	s, last = nil, nil
	for range 10 {
		runtime.GC()
		time.Sleep(time.Millisecond) // cleanups run on a goroutine of their own
	}
	// Fresh allocations may land where the session's memory was.
	junk := make([][]byte, 0, 64)
	for range 64 {
		junk = append(junk, bytes.Repeat([]byte{'#'}, 1<<20))
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("reading what was kept from a collected session: %v", r)
		}
	}()
	got := []string{strings.Clone(id), strings.Clone(ts), string(raw), string(msg)}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("value %d changed after the session was collected: %.40q, was %.40q", i, got[i], want[i])
		}
	}
	runtime.KeepAlive(junk)
}
