package dhara

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

// TestValuesOutliveSession keeps strings and bytes read from a session
// (which share its files' buffers, see str), drops the session, has it
// collected, fills memory again, and reads them: they must be as they were.
// It fails if a change maps the files or reuses their buffers.
func TestValuesOutliveSession(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "big")
	if err := synth.DharaSession(dir, "/home/dev/big", 8<<20, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 5); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	last := &s.Entries[len(s.Entries)-1]
	id, ts, typ, raw := last.ID, last.Timestamp, last.Type, last.Raw
	branch := s.Tree.Branches[0].EntryIDs[len(s.Tree.Branches[0].EntryIDs)-1]
	want := []string{strings.Clone(id), strings.Clone(ts), strings.Clone(typ), string(raw), strings.Clone(branch)}
	s, last = nil, nil
	for range 10 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
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
	got := []string{strings.Clone(id), strings.Clone(ts), strings.Clone(typ), string(raw), strings.Clone(branch)}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("value %d changed after the session was collected: %.40q, was %.40q", i, got[i], want[i])
		}
	}
	runtime.KeepAlive(junk)
}
