package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"skein/store"
)

// A read-only format said by a struct literal of its own strings and
// functions is a backend as one written out method by method was: what it
// leaves out answers as a format without it would (no line detected, no
// part, no companion file), its import is its format's name unless it
// says another, and it registers and unregisters as a pointer.
func TestReadOnlyDefaults(t *testing.T) {
	r := &store.ReadOnlyFile[*parsed]{
		ReadOnly: store.ReadOnly{
			Name:       "fake-ro",
			Words:      store.Wording{Agent: "Fake RO"},
			ClaimsPath: func(path string) bool { return filepath.Ext(path) == ".fake" },
			RootsOf:    func(store.Env) []string { return []string{"/fake"} },
			ResumeCmd:  func(path string) (string, []string) { return "fake", []string{path} },
		},
		WholeFile: store.WholeFile[*parsed]{
			Reader:     func(string) (*parsed, error) { return nil, errNotFake },
			NotSession: errNotFake,
		},
	}
	undo := store.Register(r)
	b := store.ForFormat("fake-ro")
	if b != store.Backend(r) {
		t.Fatalf("ForFormat: %v", b)
	}
	if b.Detect([]byte(`{"type":"x"}`), true) || b.(store.Parter).PartName("a.fake") || b.(store.Parter).PartOf("/x/a.fake") != nil {
		t.Error("a format with no DetectLine or Part detects or parts")
	}
	if got := b.(store.Companions).CompanionFiles("/x/a.fake"); got != nil {
		t.Errorf("companions %v", got)
	}
	if f, ok := store.Importer(b); !ok || f != "fake-ro" {
		t.Errorf("import %q %v", f, ok)
	}
	if prog, args := store.ResumeOf(b, "/x/a.fake"); prog != "fake" || !slices.Equal(args, []string{"/x/a.fake"}) || !store.Can(b, store.ActResume) {
		t.Errorf("resume %q %q", prog, args)
	}
	if !b.Claims("/x/a.fake") || b.Claims("/x/a.jsonl") {
		t.Error("claims")
	}
	undo()
	if store.ForFormat("fake-ro") == store.Backend(r) {
		t.Error("still registered after undo")
	}

	r.Import = "fake-import"
	r.Part = func(path string) bool { return filepath.Base(path) == "part.fake" }
	r.PartReason = "a fake part"
	if f, _ := store.Importer(r); f != "fake-import" {
		t.Errorf("import %q", f)
	}
	var p *store.PartOfSession
	if err := r.PartOf("/x/part.fake"); !errors.As(err, &p) || p.Reason != "a fake part" || r.PartOf("/x/a.fake") != nil {
		t.Errorf("PartOf: %v", err)
	}
}

// RootFrom gives the agent's folder function the environment, the home
// and an expansion of ~ and of a path relative to the working folder.
func TestRootFrom(t *testing.T) {
	e := store.Env{Home: "/home/u", WorkingDirPath: "/work"}
	for in, want := range map[string]string{"~/a": "/home/u/a", "rel": "/work/rel", "/abs": "/abs"} {
		roots := store.RootFrom(func(getenv func(string) string, home string, expand func(string) string) string {
			if home != e.Home {
				t.Errorf("home %q", home)
			}
			return expand(in)
		})(e)
		if len(roots) != 1 || roots[0] != want {
			t.Errorf("%q: %v, want %q", in, roots, want)
		}
	}
}

// EnvDir is the variable's folder (expanded, with sub under it) when it is
// set, else sub under the fallback; with no sub, the variable's folder as
// it is expanded.
func TestEnvDir(t *testing.T) {
	env := map[string]string{"SET": "~/x/"}
	getenv := func(k string) string { return env[k] }
	expand := func(p string) string { return "/home/u" + p[1:] }
	for _, c := range []struct {
		got, want string
	}{
		{store.EnvDir(getenv, expand, "SET", "/home/u/.a", "sessions"), "/home/u/x/sessions"},
		{store.EnvDir(getenv, nil, "SET", "/home/u/.a", "sessions"), "~/x/sessions"},
		{store.EnvDir(getenv, expand, "SET", "/home/u/.a"), "/home/u/x/"},
		{store.EnvDir(getenv, expand, "UNSET", "/home/u/.a", "b", "c"), "/home/u/.a/b/c"},
		{store.EnvDir(getenv, expand, "UNSET", "/home/u/.a"), "/home/u/.a"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

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
