// Package formattest holds the checks every format package's tests make
// the same way: that what a parsed session hands out outlives it, the
// seeds of a fuzz target, files read or listed in a test. It is for tests
// only, like internal/synth, and knows no format: each format's test says
// what to open and which values to keep.
package formattest

import (
	"bytes"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// ValuesOutlive checks that strings and bytes read from a session stay as
// they were once the session is collected. A reader that keeps slices of a
// mapped file, or of a buffer it reuses, hands out values that fault or
// change when the session goes: `session compact` faulted so with the
// leaf's id.
//
// write makes the session at a path named name in a temporary folder, open
// reads it, and keep returns the values to keep from it (each a string or
// a []byte), which must not hold the session. They are read once before
// the collection and once after it, when fresh allocations may have landed
// where the session's memory was, with a fault turned into a panic that
// fails the test.
func ValuesOutlive[S any](t testing.TB, name string, write func(path string) error, open func(path string) (S, error), keep func(S) []any) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := write(path); err != nil {
		t.Fatal(err)
	}
	// Nothing holds the session once this function returns.
	values := func() []any {
		s, err := open(path)
		if err != nil {
			t.Fatal(err)
		}
		return keep(s)
	}()
	want := cloneAll(t, values)
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
	got := cloneAll(t, values)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("value %d changed after the session was collected: %.40q, was %.40q", i, got[i], want[i])
		}
	}
	runtime.KeepAlive(junk)
}

// cloneAll copies every value out of the memory it points into, so that the
// reading happens here, under SetPanicOnFault.
func cloneAll(t testing.TB, values []any) []string {
	out := make([]string, len(values))
	for i, v := range values {
		switch v := v.(type) {
		case string:
			out[i] = strings.Clone(v)
		case []byte:
			out[i] = string(v)
		default:
			t.Fatalf("value %d is a %T, not a string or bytes", i, v)
		}
	}
	return out
}
