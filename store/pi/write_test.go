package pi

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"skein/internal/formattest"
)

// copyFixture copies a fixture into a temporary folder.
func copyFixture(t *testing.T, glob string) string {
	t.Helper()
	src := formattest.OneFile(t, filepath.Join("..", "..", "testdata", "pi", glob))
	data := formattest.ReadFile(t, src)
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func parse(t *testing.T, path string) *Session {
	t.Helper()
	s, err := Parse(formattest.ReadFile(t, path))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRenameAndLabelAppendAsPiDoes(t *testing.T) {
	path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	before := formattest.ReadFile(t, path)
	leaf := parse(t, path).Entries[parse(t, path).Leaf()].ID
	id, err := Rename(path, "  New name  ")
	if err != nil {
		t.Fatal(err)
	}
	after := formattest.ReadFile(t, path)
	if !bytes.HasPrefix(after, before) {
		t.Fatal("earlier bytes changed")
	}
	line := strings.TrimSuffix(string(after[len(before):]), "\n")
	want := `{"type":"session_info","id":"` + id + `","parentId":"` + leaf + `","timestamp":"`
	if !strings.HasPrefix(line, want) || !strings.HasSuffix(line, `","name":"New name"}`) || strings.Count(line, "\n") != 0 {
		t.Errorf("line %s", line)
	}
	if s := parse(t, path); s.Name() != "New name" {
		t.Errorf("name %q", s.Name())
	}
	// A label, then its clearing: the cleared one has no label member, as pi writes it.
	target := parse(t, path).Entries[3].ID
	if _, err := Label(path, target, "look here"); err != nil {
		t.Fatal(err)
	}
	s := parse(t, path)
	ti, _ := s.Index(target)
	if l, _ := s.Label(ti); l != "look here" {
		t.Errorf("label %q", l)
	}
	if _, err := Label(path, target, ""); err != nil {
		t.Fatal(err)
	}
	s = parse(t, path)
	if _, ok := s.Label(ti); ok {
		t.Error("label not cleared")
	}
	last := s.Entries[s.Leaf()].Raw
	if bytes.Contains(last, []byte(`"label":`)) || !bytes.Contains(last, []byte(`"targetId":"`+target+`"`)) {
		t.Errorf("clearing label entry %s", last)
	}
	// Each new entry is a child of the entry before it.
	for i := len(s.Entries) - 3; i < len(s.Entries); i++ {
		if s.Parent(i) != i-1 {
			t.Errorf("entry %d's parent is %d", i, s.Parent(i))
		}
	}
	if _, err := Label(path, "nothere1", "x"); err == nil {
		t.Error("label of a missing entry accepted")
	}
}

// A name is stored as pi 1.6.0's appendSessionInfo stores it: each run of
// CR and LF one space, then trimmed.
func TestRenameStoresTheNameAsPiDoes(t *testing.T) {
	for in, want := range map[string]string{
		"  New name  ":               "New name",
		"first\r\n\r\nsecond\nthird": "first second third",
		"a\r \nb":                    "a   b",
		"\n\n  padded\t\r\n":         "padded",
		"\u00a0nbsp\ufeff":           "nbsp",
		"\r\n":                       "",
	} {
		if got := SessionName(in); got != want {
			t.Errorf("SessionName(%q) = %q, want %q", in, got, want)
		}
	}
	path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	if _, err := Rename(path, "two\r\nlines\n"); err != nil {
		t.Fatal(err)
	}
	s := parse(t, path)
	if !bytes.HasSuffix(s.Entries[s.Leaf()].Raw, []byte(`"name":"two lines"}`)) {
		t.Errorf("stored %s", s.Entries[s.Leaf()].Raw)
	}
}

func TestAppendAfterCrashedWriter(t *testing.T) {
	useFakeClock(t, nil)
	path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	good := formattest.ReadFile(t, path)
	partial := append(append([]byte{}, good...), `{"type":"message","id":"cut","parentId":"x","mess`...)
	os.WriteFile(path, partial, 0o644)
	if _, err := Rename(path, "after the crash"); err != nil {
		t.Fatal(err)
	}
	after := formattest.ReadFile(t, path)
	if !bytes.HasPrefix(after, partial) {
		t.Fatal("earlier bytes changed")
	}
	rest := after[len(partial):]
	if !bytes.HasPrefix(rest, []byte("\n{\"type\":\"session_info\"")) {
		t.Errorf("the new line does not start on a fresh line: %q", rest)
	}
	s := parse(t, path)
	if s.Name() != "after the crash" {
		t.Errorf("name %q", s.Name())
	}
	// The partial line is skipped; the new entry follows the last good one.
	goodS, _ := Parse(good)
	if p := s.Parent(s.Leaf()); s.Entries[p].ID != goodS.Entries[goodS.Leaf()].ID {
		t.Errorf("parent %s", s.Entries[p].ID)
	}
	// A last line that parses but has no newline: the entry goes after it.
	os.WriteFile(path, bytes.TrimSuffix(good, []byte("\n")), 0o644)
	if _, err := Rename(path, "x"); err != nil {
		t.Fatal(err)
	}
	if s := parse(t, path); len(s.Entries) != len(goodS.Entries)+1 || s.Name() != "x" {
		t.Errorf("%d entries, name %q", len(s.Entries), s.Name())
	}
}

func TestAppendFindsTheLeafAsTheFileIsNow(t *testing.T) {
	path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	opened := parse(t, path)
	// An agent appends after skein opened the file.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"message","id":"agent001","parentId":"` + opened.Entries[opened.Leaf()].ID + `","timestamp":"2026-03-02T10:00:00.000Z","message":{"role":"user","content":"more","timestamp":1772445600000}}` + "\n")
	f.Close()
	if _, err := Rename(path, "n"); err != nil {
		t.Fatal(err)
	}
	s := parse(t, path)
	if p := s.Parent(s.Leaf()); s.Entries[p].ID != "agent001" {
		t.Errorf("appended after %s, not the agent's entry", s.Entries[p].ID)
	}
}

func TestAppendRefusesOldAndHeaderlessFiles(t *testing.T) {
	for _, glob := range []string{"legacy/v1.jsonl", "legacy/v2.jsonl", "broken/no-header.jsonl", "broken/empty.jsonl"} {
		path := copyFixture(t, glob)
		before := formattest.ReadFile(t, path)
		_, err := Rename(path, "nope")
		var r *RefusedError
		if !errors.As(err, &r) {
			t.Errorf("%s: err %v", glob, err)
		}
		if !bytes.Equal(formattest.ReadFile(t, path), before) {
			t.Errorf("%s changed", glob)
		}
		if strings.HasPrefix(glob, "legacy") && !strings.Contains(r.Reason, "fork") {
			t.Errorf("%s: the refusal does not offer a fork: %s", glob, r.Reason)
		}
	}
}

func TestConcurrentAppendsStayWhole(t *testing.T) {
	path := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	before := len(parse(t, path).Entries)
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Rename(path, strings.Repeat("name ", 200)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	s := parse(t, path)
	if len(s.Entries) != before+20 || len(s.Diagnostics) != 0 {
		t.Errorf("%d entries (want %d), diagnostics %v", len(s.Entries), before+20, s.Diagnostics)
	}
}

// Fork every entry of every fixture pi wrote (and the v1 and v2 files): the
// fork is beside the source, the source unchanged, the copied lines the
// source's bytes, the header right, the context at the fork's leaf the
// source's at that entry, and the labels on the path the source's.
func TestForkEveryEntry(t *testing.T) {
	globs := []string{"legacy/v1.jsonl", "legacy/v2.jsonl", "broken/orphans.jsonl"}
	stores, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "pi", "store", "*", "*.jsonl"))
	for _, st := range stores {
		rel, _ := filepath.Rel(filepath.Join("..", "..", "testdata", "pi"), st)
		globs = append(globs, rel)
	}
	for _, glob := range globs {
		src := copyFixture(t, glob)
		before := formattest.ReadFile(t, src)
		s := parse(t, src)
		for at := range s.Entries {
			if !s.Entries[at].HasID {
				continue
			}
			f, err := WriteFork(src, s, at)
			if err != nil {
				t.Fatalf("%s @%d: %v", glob, at, err)
			}
			if filepath.Dir(f.Path) != filepath.Dir(src) {
				t.Errorf("fork not beside its source: %s", f.Path)
			}
			fs := parse(t, f.Path)
			abs, _ := filepath.Abs(src)
			if fs.Header.Version != 3 || fs.Header.Cwd != s.Header.Cwd || fs.Header.ParentSession != abs || fs.Header.ID != f.ID {
				t.Errorf("%s @%d: header %+v", glob, at, fs.Header)
			}
			path := s.Path(at)
			if len(fs.Entries) < len(path) {
				t.Fatalf("%s @%d: %d entries for a path of %d", glob, at, len(fs.Entries), len(path))
			}
			for k, i := range path {
				if s.Header.Version >= 3 && !bytes.Equal(fs.Entries[k].Raw, s.Entries[i].Raw) {
					t.Errorf("%s @%d: line %d not copied byte for byte", glob, at, k)
				}
			}
			var want, got bytes.Buffer
			s.WriteContextJSON(&want, s.BuildContext(at))
			fs.WriteContextJSON(&got, fs.BuildContext(fs.Leaf()))
			if !bytes.Equal(want.Bytes(), got.Bytes()) {
				t.Errorf("%s @%d: the fork's context differs\n got %.300s\nwant %.300s", glob, at, got.Bytes(), want.Bytes())
			}
			for k, i := range path {
				wl, wok := s.Label(i)
				gl, gok := fs.Label(k)
				if wl != gl || wok != gok {
					t.Errorf("%s @%d: label of %s is %q, source %q", glob, at, s.Entries[i].ID, gl, wl)
				}
			}
			os.Remove(f.Path)
		}
		if !bytes.Equal(formattest.ReadFile(t, src), before) {
			t.Errorf("%s: the source changed", glob)
		}
	}
}
