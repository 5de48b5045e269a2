package pi

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"skein/internal/synth"
	"skein/store"
)

func bigFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := synth.Session(path, "/home/dev/big", 12<<20, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 5); err != nil {
		t.Fatal(err)
	}
	return path
}

// faultOf runs f and returns what it panicked with, the goroutine asking
// for faults to be panics as the command line does.
func faultOf(f func()) (r any) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() { r = recover() }()
	f()
	return nil
}

// TestMappedSessionCutShort cuts a mapped session's file to half: the parse
// and the writing of the context, whose workers (on every core) read the
// second half, fault, and each fault reaches the caller as a panic it can
// recover (store.IsFault), not a crash of the process (a fault in a goroutine no
// one recovers kills this test binary).
func TestMappedSessionCutShort(t *testing.T) {
	path := bigFile(t)
	data, err := mapFile(path)
	if err != nil || data == nil {
		t.Skipf("not mapped here: %v", err)
	}
	mapped, err := OpenMapped(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := mapped.BuildContext(mapped.Leaf())
	if len(ctx.Messages) < 2000 {
		t.Fatalf("%d messages: too few for the context's workers", len(ctx.Messages))
	}
	if err := os.Truncate(path, int64(len(data)/2)); err != nil {
		t.Fatal(err)
	}
	if r := faultOf(func() { Parse(data) }); !store.IsFault(r) {
		t.Errorf("parsing a file cut short: %v, want a fault", r)
	}
	if r := faultOf(func() { mapped.WriteContextJSON(io.Discard, ctx) }); !store.IsFault(r) {
		t.Errorf("writing a context of a file cut short: %v, want a fault", r)
	}
	if r := faultOf(func() { _ = string(mapped.Entries[len(mapped.Entries)-1].Raw) }); !store.IsFault(r) {
		t.Errorf("reading an entry of a file cut short: %v, want a fault", r)
	}
}

// TestMappedValuesOutliveSession: a mapping is never unmapped, so that what
// was read from it stays readable after the session is collected.
func TestMappedValuesOutliveSession(t *testing.T) {
	path := bigFile(t)
	s, err := OpenMapped(path)
	if err != nil {
		t.Fatal(err)
	}
	last := &s.Entries[len(s.Entries)-1]
	raw, id := last.Raw, last.ID
	want := string(raw)
	s, last = nil, nil
	for range 5 {
		runtime.GC()
	}
	if r := faultOf(func() {
		if string(raw) != want || id == "" {
			t.Error("a value changed after its session was collected")
		}
	}); r != nil {
		t.Fatalf("reading what was kept: %v", r)
	}
}
