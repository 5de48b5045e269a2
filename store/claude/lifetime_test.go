package claude

import (
	"skein/internal/synth"

	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

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
	want := []string{strings.Clone(e.ID), strings.Clone(e.ParentID), strings.Clone(e.Timestamp), strings.Clone(e.Type), string(raw),
		strings.Clone(info.ID), strings.Clone(info.Cwd), strings.Clone(info.FirstMessage), strings.Clone(text)}
	s = nil
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
	got := []string{strings.Clone(e.ID), strings.Clone(e.ParentID), strings.Clone(e.Timestamp), strings.Clone(e.Type), string(raw),
		strings.Clone(info.ID), strings.Clone(info.Cwd), strings.Clone(info.FirstMessage), strings.Clone(text)}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("value %d changed after the session was collected", i)
		}
	}
	runtime.KeepAlive(junk)
}
