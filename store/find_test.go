package store_test

import (
	"os"
	"path/filepath"
	"skein/internal/stamp"
	"skein/store"
	"testing"
)

// plainStore copies sessions of three formats into a folder that is no
// agent's, under names that say nothing of their format, with a file of
// no format; it returns the files.
func plainStore(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a.jsonl": "claude/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl",
		"b.jsonl": "codex/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl",
		"c.jsonl": "pi/store/--home-dev-tools--/2026-03-07T10-00-00-000Z_019cc7bd-5500-71f0-a318-9338ec3f5702.jsonl",
	} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", src))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "d.jsonl"), []byte(`{"note":"no session"}`+"\n"), 0o644)
	files, err := store.Discover([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Find names each file's format by its content, and ForFormat gives the
// same backend for the format a list record names.
func TestFindByContent(t *testing.T) {
	files := plainStore(t)
	want := []store.Format{store.FormatClaude, store.FormatCodex, store.FormatPi, store.FormatPi}
	for i, f := range files {
		b, err := store.Find(f)
		if err != nil || b.Format() != want[i] {
			t.Errorf("%s: %v, %v; want %s", filepath.Base(f), b.Format(), err, want[i])
		}
		if store.ForFormat(want[i]).Format() != want[i] {
			t.Errorf("ForFormat(%s) is %s's", want[i], store.ForFormat(want[i]).Format())
		}
	}
	if b, err := store.Find(filepath.Join(t.TempDir(), "gone.jsonl")); err == nil || b.Format() != store.FormatPi {
		t.Errorf("a missing file: %v, %v", b.Format(), err)
	}
}

// The list index keeps the format it found by a file's content: a warm
// list reads no file again (pi's reader is not asked first, to refuse the
// file again, and its first lines are not read again), and lists the same.
func TestListIndexKeepsTheFormatFound(t *testing.T) {
	now := stamp.NowNs
	stamp.NowNs = func() int64 { return now() + 10*stamp.Slack } // every stamp settled
	t.Cleanup(func() { stamp.NowNs = now })
	files := plainStore(t)
	cache := t.TempDir()
	want, wantProblems, _, _ := listWith(t, "", files)
	formats := map[string]string{}
	for _, in := range want {
		formats[filepath.Base(in.Path)] = in.Format
	}
	if formats["a.jsonl"] != "claude" || formats["b.jsonl"] != "codex" || formats["c.jsonl"] != "pi" || len(want) != 3 || len(wantProblems) != 1 {
		t.Fatalf("listed %v, %d left out", formats, len(wantProblems))
	}
	got, _, _, _ := listWith(t, cache, files)
	sameList(t, got, want)
	got, problems, full, part := listWith(t, cache, files)
	sameList(t, got, want)
	if full != 0 || part != 0 || len(problems) != 1 {
		t.Errorf("warm: %d read whole, %d in part, %d left out", full, part, len(problems))
	}
	store.UseCache(store.OpenCache(cache))
	defer store.UseCache(nil)
	if cached := store.Cached([]string{filepath.Dir(files[0])}); len(cached) != 3 {
		t.Errorf("the index's first screen holds %d records, want 3", len(cached))
	}
}
