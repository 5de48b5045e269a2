package store_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/store"
)

// ReadSubFiles names each file by its path from the session's folder
// (or as name says), hands those it reads to file, and leaves out one it
// cannot read (a folder, a file gone) with a warning that names it.
func TestReadSubFiles(t *testing.T) {
	dir := t.TempDir()
	session := filepath.Join(dir, "s.jsonl")
	ok := filepath.Join(dir, "s", "subagents", "a.jsonl")
	folder := filepath.Join(dir, "s", "subagents", "b.jsonl")
	gone := filepath.Join(dir, "s", "subagents", "c.jsonl")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ok, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	type sub struct{ name, path, data string }
	mk := func(name, p string, b []byte) sub { return sub{name, p, string(b)} }
	got, problems := store.ReadSubFiles(session, []string{ok, folder, gone}, "sub-agent log", nil, mk)
	if len(got) != 1 || got[0] != (sub{"s/subagents/a.jsonl", ok, "x"}) {
		t.Errorf("read %+v", got)
	}
	if len(problems) != 2 || problems[0].File != "s/subagents/b.jsonl" || problems[1].File != "s/subagents/c.jsonl" ||
		!problems[0].Warning || !strings.HasPrefix(problems[1].Msg, "sub-agent log left out: ") {
		t.Errorf("problems %+v", problems)
	}
	got, _ = store.ReadSubFiles(session, []string{ok}, "x", func(p string) string { return "../" + filepath.Base(p) }, mk)
	if len(got) != 1 || got[0].name != "../a.jsonl" {
		t.Errorf("named %+v", got)
	}
}
