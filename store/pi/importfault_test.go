package pi

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"skein/internal/formattest"
	"skein/internal/safewrite"
	"skein/model"
)

// An import into pi (WriteFromSession, its bytes streamed as they are
// built) that fails at any byte count, at its sync or at its naming leaves
// the folder as it was: no session, no temporary file; the import made
// after them is whole and pi's reader finds nothing wrong in it.
func TestImportFailingAtEveryByteLeavesNothing(t *testing.T) {
	for _, way := range newFileWays {
		t.Run(way.name, func(t *testing.T) {
			way.setup(t)
			src := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
			s := parse(t, src).Domain(model.SessionInfo{Path: src, Cwd: "/w"})
			out := filepath.Join(t.TempDir(), "out")
			now := time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)
			check := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, errInjected) {
					t.Fatalf("%s: err %v", what, err)
				}
				if got := formattest.Names(t, out, ""); len(got) != 0 {
					t.Fatalf("%s: the folder holds %v", what, got)
				}
			}
			n := 0
			var path string
			for ; ; n++ {
				failWrites(t, func(f *os.File) safewrite.File { return &faultyFile{File: f, budget: n} })
				var err error
				if path, _, err = WriteFromSession(out, s, now, "/w", []byte(`{"path":"src.jsonl"}`)); err == nil {
					break
				}
				check("a write failing after "+strconv.Itoa(n)+" bytes", err)
			}
			if size := len(formattest.ReadFile(t, path)); n != size {
				t.Errorf("the import succeeded with %d bytes allowed, its size %d", n, size)
			}
			os.Remove(path)
			failWrites(t, func(f *os.File) safewrite.File { return &faultyFile{File: f, budget: 1 << 30, failSync: true} })
			_, _, err := WriteFromSession(out, s, now, "/w", nil)
			check("a failing sync", err)
			failWrites(t, func(f *os.File) safewrite.File { return f })
			for _, name := range []string{"link", "syncdir"} {
				failAtStep(t, name)
				_, _, err := WriteFromSession(out, s, now, "/w", nil)
				check("a failing "+name, err)
			}
			failStep = nil
			path, _, err = WriteFromSession(out, s, now, "/w", nil)
			if err != nil {
				t.Fatal(err)
			}
			if ps := parse(t, path); len(ps.Diagnostics) != 0 || len(ps.Entries) < s.Source.Len() {
				t.Errorf("the import after the failures: %d entries, diagnostics %v", len(ps.Entries), ps.Diagnostics)
			}
		})
	}
}
