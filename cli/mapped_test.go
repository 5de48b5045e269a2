package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"skein/internal/synth"
	"skein/store"
)

// TestMappedCommands: the read commands map a session large enough to be
// worth it, and print what they print from a session read into memory.
func TestMappedCommands(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := synth.Session(path, "/home/dev/big", 12<<20, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 3); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := s.WriteContextJSON(&want, s.BuildContext(s.Leaf())); err != nil {
		t.Fatal(err)
	}
	want.WriteString("\n")
	var out, errb bytes.Buffer
	if code := Run([]string{"session", "context", "--json", path}, nil, &out, &errb); code != 0 || !bytes.Equal(out.Bytes(), want.Bytes()) {
		t.Errorf("context of a mapped session: exit %d, %d bytes, want %d: %s", code, out.Len(), want.Len(), errb.String())
	}
	for _, args := range [][]string{{"session", "tree", path}, {"session", "plan", "--json", path}} {
		out.Reset()
		if code := Run(args, nil, &out, &errb); code != 0 || out.Len() == 0 {
			t.Errorf("%v: exit %d: %s", args, code, errb.String())
		}
	}
}

// TestMappedFaultIsAMessage: a session file cut short while a command uses
// its mapping gives one line and exit 1, not a crash.
func TestMappedFaultIsAMessage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := synth.Session(path, "/home/dev/big", 12<<20, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 3); err != nil {
		t.Fatal(err)
	}
	s, err := store.OpenMapped(path)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if err := os.Truncate(path, st.Size()/2); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code := func() (code int) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer catchFault(&stderr, &code)
		s.WriteContextJSON(io.Discard, s.BuildContext(s.Leaf()))
		return 0
	}()
	if code != 1 || !strings.Contains(stderr.String(), "changed while it was read") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}
