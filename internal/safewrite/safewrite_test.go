package safewrite

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var errFull = errors.New("injected: no space left on device")

// faulty is a real file whose writes stop after budget bytes and whose sync
// may fail; onFail runs when the write fails (another writer's move).
type faulty struct {
	*os.File
	budget   int
	failSync bool
	onFail   func()
}

func (f *faulty) Write(p []byte) (int, error) {
	if len(p) <= f.budget {
		f.budget -= len(p)
		return f.File.Write(p)
	}
	n, _ := f.File.Write(p[:f.budget])
	f.budget = 0
	if f.onFail != nil {
		f.onFail()
	}
	return n, errFull
}

func (f *faulty) Sync() error {
	if f.failSync {
		return errFull
	}
	return f.File.Sync()
}

func open(t *testing.T, content string) (string, *os.File) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return path, f
}

// A write that fails after any number of bytes, or a sync that fails, leaves
// the file as it was; a whole write and sync leave it with the line.
func TestAppendLandsWholeOrNotAtAll(t *testing.T) {
	const before, line = "one\ntwo\n", "three, a longer line\n"
	for n := 0; n <= len(line); n++ {
		for _, failSync := range []bool{false, true} {
			path, f := open(t, before)
			err := Append(&faulty{File: f, budget: n, failSync: failSync}, int64(len(before)), []byte(line))
			want := before
			if n == len(line) && !failSync {
				want += line
				if err != nil {
					t.Fatalf("budget %d: %v", n, err)
				}
			} else if !errors.Is(err, errFull) {
				t.Fatalf("budget %d, failing sync %v: err %v", n, failSync, err)
			}
			if got, _ := os.ReadFile(path); string(got) != want {
				t.Errorf("budget %d, failing sync %v: the file is %q", n, failSync, got)
			}
		}
	}
}

// Another writer that appends while the write fails keeps its line: the
// failed bytes are not cut then, and the error says so.
func TestAppendNeverCutsAnotherWritersLine(t *testing.T) {
	const before, line, other = "one\n", "mine, cut\n", "theirs\n"
	path, f := open(t, before)
	err := Append(&faulty{File: f, budget: 4, onFail: func() {
		g, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		g.WriteString(other)
		g.Close()
	}}, int64(len(before)), []byte(line))
	if !errors.Is(err, errFull) || !strings.Contains(err.Error(), "another writer") {
		t.Fatalf("err %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.HasSuffix(got, []byte(other)) {
		t.Errorf("the other writer's line was cut: %q", got)
	}
}
