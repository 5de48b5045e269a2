package pi

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"skein/internal/synth"
	"skein/model"
)

// An import written as it is built (WriteFromSession, several flushes of
// flushEvery bytes) is on disk exactly the bytes built, whole and with its
// mode, under pi's name for it, and pi's reader reads it back; a second
// one never replaces it.
func TestWriteFromSessionStreams(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.jsonl")
	if err := synth.Session(src, "/w", 4*flushEvery+12345, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 7); err != nil {
		t.Fatal(err)
	}
	ps, err := Open(src)
	if err != nil {
		t.Fatal(err)
	}
	s := ps.Domain(model.SessionInfo{Path: src, Cwd: "/w"})
	out := filepath.Join(dir, "out")
	now := time.Date(2026, 2, 3, 4, 5, 6, 789e6, time.UTC)
	path, b, err := WriteFromSession(out, s, now, "/w", []byte(`{"path":"src.jsonl"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Lines) < 3*flushEvery {
		t.Fatalf("%d bytes built, want more than three flushes", len(b.Lines))
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Lines) {
		t.Fatalf("file holds %d bytes, %d built; first difference at %d", len(got), len(b.Lines), firstDiff(got, b.Lines))
	}
	// Named by the source's creation (its header's), not by the import's time.
	if want := "2026-01-01T00-00-00-000Z_" + b.ID + ".jsonl"; filepath.Base(path) != want {
		t.Errorf("named %s, want %s", filepath.Base(path), want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode())
	}
	back, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Len() < s.Len() {
		t.Errorf("read back %d entries, the source has %d", back.Len(), s.Len())
	}
	names, _ := os.ReadDir(out)
	if len(names) != 1 {
		t.Errorf("%d files in the folder, want the one", len(names))
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
