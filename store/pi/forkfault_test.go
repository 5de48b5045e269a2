package pi

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"skein/internal/formattest"
	"skein/internal/safewrite"
)

// failAtStep has failStep fail the step named.
func failAtStep(t *testing.T, name string) {
	old := failStep
	failStep = func(s string) error {
		if s == name {
			return errInjected
		}
		return nil
	}
	t.Cleanup(func() { failStep = old })
}

// A fork that fails at any step (its write after any number of bytes, its
// sync, its naming, the folder's sync once it is named) leaves the folder
// as it was: no file under the fork's name, no temporary file, the source
// byte for byte; the fork made after them is whole.
func TestForkFailingAtEveryStepLeavesNothing(t *testing.T) {
	for _, way := range newFileWays {
		t.Run(way.name, func(t *testing.T) {
			way.setup(t)
			src := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
			dir := filepath.Dir(src)
			before := formattest.ReadFile(t, src)
			s := parse(t, src)
			at := 3 // a short fork: every byte count of it is tried
			check := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, errInjected) {
					t.Fatalf("%s: err %v", what, err)
				}
				if got := formattest.Names(t, dir, ""); len(got) != 1 {
					t.Fatalf("%s: the folder holds %v", what, got)
				}
				if !bytes.Equal(formattest.ReadFile(t, src), before) {
					t.Fatalf("%s: the source changed", what)
				}
			}
			n := 0
			var fork Fork
			for ; ; n++ {
				failWrites(t, func(f *os.File) safewrite.File { return &faultyFile{File: f, budget: n} })
				var err error
				if fork, err = WriteFork(src, s, at); err == nil {
					break
				}
				check("a write failing after "+strconv.Itoa(n)+" bytes", err)
			}
			if size := len(formattest.ReadFile(t, fork.Path)); n != size {
				t.Errorf("the fork succeeded with %d bytes allowed, its size %d", n, size)
			}
			os.Remove(fork.Path)
			failWrites(t, func(f *os.File) safewrite.File { return &faultyFile{File: f, budget: 1 << 30, failSync: true} })
			_, err := WriteFork(src, s, at)
			check("a failing sync", err)
			failWrites(t, func(f *os.File) safewrite.File { return f })
			for _, name := range []string{"link", "syncdir"} {
				failAtStep(t, name)
				_, err := WriteFork(src, s, at)
				check("a failing "+name, err)
			}
			failStep = nil
			fork, err = WriteFork(src, s, at)
			if err != nil {
				t.Fatal(err)
			}
			if fs := parse(t, fork.Path); len(fs.Diagnostics) != 0 || len(fs.Entries) != len(s.Path(at))+fork.Labels {
				t.Errorf("the fork after the failures: %d entries, diagnostics %v", len(fs.Entries), fs.Diagnostics)
			}
		})
	}
}

// On a file system without hard links a named new file is renamed into
// place, and still never over a file that took its name meanwhile.
func TestNewFileWithoutHardLinks(t *testing.T) {
	forceNamed(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "new.jsonl")
	var other func()
	old := failStep
	failStep = func(step string) error {
		if step != "link" {
			return nil
		}
		if other != nil {
			other()
		}
		return &os.LinkError{Op: "link", Err: syscall.EPERM}
	}
	t.Cleanup(func() { failStep = old })
	if err := writeNew(path, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := formattest.Names(t, dir, ""); len(got) != 1 || string(formattest.ReadFile(t, path)) != "mine\n" {
		t.Errorf("the folder holds %v", got)
	}
	os.Remove(path)
	// Another program makes a file with the name just before the rename.
	other = func() { os.WriteFile(path, []byte("theirs\n"), 0o644) }
	if err := writeNew(path, []byte("mine\n"), 0o644); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("err %v", err)
	}
	if got := formattest.Names(t, dir, ""); len(got) != 1 || string(formattest.ReadFile(t, path)) != "theirs\n" {
		t.Errorf("the folder holds %v, the file %q", got, formattest.ReadFile(t, path))
	}
}
