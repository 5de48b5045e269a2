package pi

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"skein/internal/formattest"
	"skein/internal/safewrite"
)

var errInjected = errors.New("injected: no space left on device")

// faultyFile is a real file whose writes stop after budget bytes, and whose
// sync fails when failSync is set.
type faultyFile struct {
	*os.File
	budget   int
	failSync bool
}

func (f *faultyFile) Write(p []byte) (int, error) {
	if len(p) <= f.budget {
		f.budget -= len(p)
		return f.File.Write(p)
	}
	n, _ := f.File.Write(p[:f.budget])
	f.budget = 0
	return n, errInjected
}

func (f *faultyFile) Sync() error {
	if f.failSync {
		return errInjected
	}
	return f.File.Sync()
}

// failWrites has every write of pi's go through fault(f).
func failWrites(t *testing.T, fault func(f *os.File) safewrite.File) {
	old := through
	through = fault
	t.Cleanup(func() { through = old })
}

// An append that fails after any number of bytes of its line, or at the
// sync, leaves the file byte for byte as it was, whether its line starts
// with the newline that ends a crashed writer's partial line or not; the
// next append lands whole and the file parses as it did, plus that entry.
func TestAppendFailingAtEveryByteLeavesTheFile(t *testing.T) {
	useFakeClock(t, nil)
	for _, partial := range []string{"", `{"type":"message","id":"cut","parentId":"x","mess`} {
		path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
		appendTo(t, path, partial)
		before := formattest.ReadFile(t, path)
		s0, _ := Parse(before)
		target := s0.Entries[2].ID
		n := 0
		for ; ; n++ {
			failWrites(t, func(f *os.File) safewrite.File { return &faultyFile{File: f, budget: n} })
			_, err := Label(path, target, "a label long enough to be written in pieces")
			if err == nil {
				break
			}
			if !errors.Is(err, errInjected) {
				t.Fatalf("write failing after %d bytes: %v", n, err)
			}
			if got := formattest.ReadFile(t, path); !bytes.Equal(got, before) {
				t.Fatalf("write failing after %d bytes left %q", n, got[min(len(before), len(got)):])
			}
		}
		grown := formattest.ReadFile(t, path)
		line := grown[len(before):]
		if n != len(line) || !bytes.HasPrefix(grown, before) {
			t.Fatalf("the append succeeded with %d bytes allowed, its line %d: %q", n, len(line), line)
		}
		os.WriteFile(path, before, 0o644)
		failWrites(t, func(f *os.File) safewrite.File { return &faultyFile{File: f, budget: 1 << 20, failSync: true} })
		if _, err := Label(path, target, "x"); !errors.Is(err, errInjected) {
			t.Fatalf("failing sync: %v", err)
		}
		if got := formattest.ReadFile(t, path); !bytes.Equal(got, before) {
			t.Fatalf("a failing sync left %q", got[min(len(before), len(got)):])
		}
		failWrites(t, func(f *os.File) safewrite.File { return f })
		if _, err := Label(path, target, "at last"); err != nil {
			t.Fatal(err)
		}
		s := parse(t, path)
		ti, _ := s.Index(target)
		if l, _ := s.Label(ti); l != "at last" || len(s.Entries) != len(s0.Entries)+1 || len(s.Diagnostics) != len(s0.Diagnostics) {
			t.Errorf("after the failures: label %q, %d entries (%d before), diagnostics %v", l, len(s.Entries), len(s0.Entries), s.Diagnostics)
		}
		if partial != "" && !bytes.Contains(formattest.ReadFile(t, path), []byte(partial+"\n{")) {
			t.Error("the crashed writer's line was not ended before the new one")
		}
	}
}

// replaceWith puts a new file holding data in path's place, as an agent
// that rewrites its session does (a rename over it).
func replaceWith(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path+".new", data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
}

// Another program replaces the session file while a label waits for the
// partial last line of the file it opened: the label goes to the file the
// path names now, and the old file is not written.
func TestAppendWritesTheFileThePathNamesNow(t *testing.T) {
	path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	good := formattest.ReadFile(t, path)
	target := parse(t, path).Entries[2].ID
	appendTo(t, path, `{"type":"message","id":"cut","parentId":"x","mess`)
	old := formattest.ReadFile(t, path)
	if err := os.Link(path, path+".old"); err != nil {
		t.Fatal(err)
	}
	replacement := append(append([]byte{}, good...), `{"type":"session_info","id":"renamed1","parentId":null,"timestamp":"2026-03-02T11:00:00.000Z","name":"rewritten"}`+"\n"...)
	useFakeClock(t, func(n int) {
		if n == 1 {
			replaceWith(t, path, replacement)
		}
	})
	waits := 0
	id, err := Label(path, target, "kept", OnWait(func() { waits++ }))
	if err != nil {
		t.Fatal(err)
	}
	if got := formattest.ReadFile(t, path+".old"); !bytes.Equal(got, old) {
		t.Errorf("the replaced file was written: %q", got[min(len(old), len(got)):])
	}
	now := formattest.ReadFile(t, path)
	if !bytes.HasPrefix(now, replacement) || !strings.Contains(string(now[len(replacement):]), `"id":"`+id+`"`) {
		t.Errorf("the label is not in the file the path names: %q", now[min(len(replacement), len(now)):])
	}
	if s := parse(t, path); len(s.Diagnostics) != 0 || s.Parent(s.Leaf()) < 0 || s.Entries[s.Parent(s.Leaf())].ID != "renamed1" {
		t.Errorf("diagnostics %v; the label's parent is not the new file's leaf", s.Diagnostics)
	}
	if waits != 1 {
		t.Errorf("OnWait called %d times", waits)
	}
}

// A path replaced again each time the label opens it: the label gives up,
// says why, and has written nothing anywhere.
func TestAppendGivesUpOnAPathReplacedOverAndOver(t *testing.T) {
	path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	target := parse(t, path).Entries[2].ID
	appendTo(t, path, `{"type":"message","id":"cut","parentId":"x","mess`)
	partial := formattest.ReadFile(t, path)
	var olds []string
	useFakeClock(t, func(n int) {
		if n%5 == 1 {
			old := path + ".old" + strings.Repeat("i", n)
			os.Link(path, old)
			olds = append(olds, old)
			replaceWith(t, path, partial)
		}
	})
	_, err := Label(path, target, "lost?")
	var r *RefusedError
	if !errors.As(err, &r) || !strings.Contains(r.Reason, "replaced") {
		t.Fatalf("err %v", err)
	}
	for _, p := range append(olds, path) {
		if got := formattest.ReadFile(t, p); !bytes.Equal(got, partial) {
			t.Errorf("%s was written: %q", p, got[min(len(partial), len(got)):])
		}
	}
}
