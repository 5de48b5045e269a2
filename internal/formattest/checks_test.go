package formattest

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fake is a parsed session of n entries whose answers each test bends to
// see a check fail: entry i's id is "e<i>" and its parent i-1.
type fake struct {
	n, leaf int
	index   func(id string) (int, bool)
	json    string
	parent  func(i int) int
}

func (f *fake) Len() int                    { return f.n }
func (f *fake) Leaf() int                   { return f.leaf }
func (f *fake) Index(id string) (int, bool) { return f.index(id) }
func (f *fake) BuildContext(leaf int) int   { return leaf }
func (f *fake) WriteContextJSON(w io.Writer, _ int) error {
	_, err := io.WriteString(w, f.json)
	return err
}
func (f *fake) WriteTreeJSON(w io.Writer) error { _, err := io.WriteString(w, f.json); return err }
func (f *fake) Parent(i int) int                { return f.parent(i) }

func (f *fake) Roots() []int {
	var out []int
	for i := range f.n {
		if f.parent(i) < 0 {
			out = append(out, i)
		}
	}
	return out
}

func (f *fake) Children(i int) []int {
	var out []int
	for c := range f.n {
		if f.parent(c) == i {
			out = append(out, c)
		}
	}
	return out
}

func healthy() *fake {
	return &fake{n: 3, leaf: 2, json: `{"ok":true}`,
		index:  func(id string) (int, bool) { return int(id[1] - '0'), true },
		parent: func(i int) int { return i - 1 }}
}

func exercise(t *testing.T, s *fake, r Readers[int]) []string {
	if r.ID == nil {
		r.ID = func(i int) string { return "e" + string(rune('0'+i)) }
	}
	return run(t, func(tb testing.TB) { Exercise(tb, s, r) })
}

func TestExercise(t *testing.T) {
	if f := exercise(t, healthy(), Readers[int]{}); len(f) != 0 {
		t.Fatalf("a healthy session: %q", f)
	}
	for _, c := range []struct {
		name string
		bend func(*fake, *Readers[int])
		want string
	}{
		{"leaf past the end", func(s *fake, _ *Readers[int]) { s.leaf = 3 }, "leaf 3 of 3"},
		{"no leaf", func(s *fake, _ *Readers[int]) { s.leaf = -1 }, "leaf -1 of 3"},
		{"an id found elsewhere", func(s *fake, _ *Readers[int]) { s.index = func(string) (int, bool) { return 0, true } }, "entry 1"},
		{"an id not found", func(s *fake, _ *Readers[int]) { s.index = func(string) (int, bool) { return 0, false } }, "entry 0"},
		{"a cycle followed", func(_ *fake, r *Readers[int]) { r.Path = func(int) []int { return make([]int, 4) } }, "path longer"},
		{"JSON cut off", func(s *fake, _ *Readers[int]) { s.json = `{"ok":` }, "context JSON invalid"},
	} {
		s, r := healthy(), Readers[int]{}
		c.bend(s, &r)
		if f := exercise(t, s, r); len(f) != 1 || !strings.Contains(f[0], c.want) {
			t.Errorf("%s: %q, want %q", c.name, f, c.want)
		}
	}
	s := healthy()
	s.leaf = -1
	if f := exercise(t, s, Readers[int]{NoLeaf: true}); len(f) != 0 {
		t.Errorf("no leaf where the format allows none: %q", f)
	}
	calls := 0
	exercise(t, healthy(), Readers[int]{Entry: func(int) { calls++ }, Leaves: func() []int { return []int{0, 1} },
		Context: func(int, int) { calls += 10 }, Session: func() { calls += 100 }})
	if calls != 123 {
		t.Errorf("the format's readers were called %d times (by weight), want 123", calls)
	}
}

func TestCheckForest(t *testing.T) {
	if f := run(t, func(tb testing.TB) { CheckForest(tb, healthy()) }); len(f) != 0 {
		t.Fatalf("a chain: %q", f)
	}
	s := healthy()
	s.parent = func(i int) int { return []int{-1, 2, 1}[i] } // 1 and 2 each other's parent
	if f := run(t, func(tb testing.TB) { CheckForest(tb, s) }); len(f) != 1 || !strings.Contains(f[0], "1 of 3 entries reached") {
		t.Errorf("a cycle: %q", f)
	}
}

func TestSniffs(t *testing.T) {
	claimsJSON := func(head []byte) bool { return strings.HasPrefix(string(head), "{") }
	if f := run(t, func(tb testing.TB) { Sniffs(tb, "Sniff", claimsJSON, []string{"{}"}, []string{"[]"}) }); len(f) != 0 {
		t.Fatalf("%q", f)
	}
	f := run(t, func(tb testing.TB) { Sniffs(tb, "Sniff", claimsJSON, []string{"x", "{"}, []string{"{a", "b"}) })
	if !slices.Equal(f, []string{`Sniff("x") = false, want true`, `Sniff("{a") = true, want false`}) {
		t.Errorf("%q", f)
	}
}

func TestNotSession(t *testing.T) {
	errNot := errors.New("not a session")
	parse := func(data []byte) (int, error) {
		if len(data) == 0 {
			return 0, errNot
		}
		return 1, nil
	}
	if f := run(t, func(tb testing.TB) { NotSession(tb, parse, errNot, "", "x") }); len(f) != 1 || !strings.Contains(f[0], `"x"`) {
		t.Errorf("%q", f)
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.jsonl", "a.jsonl.tmp1", "b"} {
		if err := writeFile(filepath.Join(dir, name), name); err != nil {
			t.Fatal(err)
		}
	}
	if got := Names(t, dir, ""); !slices.Equal(got, []string{"a.jsonl", "a.jsonl.tmp1", "b"}) {
		t.Errorf("Names: %q", got)
	}
	if got := Names(t, dir, ".tmp"); !slices.Equal(got, []string{"a.jsonl.tmp1"}) {
		t.Errorf("Names of .tmp: %q", got)
	}
	if got := string(ReadFile(t, filepath.Join(dir, "b"))); got != "b" {
		t.Errorf("ReadFile: %q", got)
	}
	if f := run(t, func(tb testing.TB) { ReadFile(tb, filepath.Join(dir, "none")) }); len(f) != 1 {
		t.Errorf("ReadFile of nothing: %q", f)
	}
	if f := run(t, func(tb testing.TB) { Index(tb, healthy(), "e1") }); len(f) != 0 {
		t.Errorf("Index: %q", f)
	}
	s := healthy()
	s.index = func(string) (int, bool) { return 0, false }
	if f := run(t, func(tb testing.TB) { Index(tb, s, "e9") }); len(f) != 1 || f[0] != `no entry "e9"` {
		t.Errorf("Index of a missing id: %q", f)
	}
}

// A list record read by its fields' names, pointer or not, with its times
// as ISO strings; and a fixture whose every part differs says so for each.
func TestFixture(t *testing.T) {
	type info struct {
		Path, Format, ID, Cwd, Name, FirstMessage, Model string
		Created, Modified                                float64
		MessageCount, Entries, Branches                  int
	}
	in := info{Path: "a.jsonl", Format: "x", ID: "s1", Cwd: "/w", FirstMessage: "hi", Created: 0, Modified: 1e12, MessageCount: 2, Entries: 3, Branches: 1}
	want := Record{ID: "s1", Cwd: "/w", Created: "1970-01-01T00:00:00.000Z", Modified: "2001-09-09T01:46:40.000Z",
		FirstMessage: "hi", MessageCount: 2, Entries: 3, Branches: 1}
	if r := RecordOf(in); r != want {
		t.Errorf("RecordOf\n got %+v\nwant %+v", r, want)
	}
	if r := RecordOf(&in); r != want {
		t.Errorf("RecordOf a pointer\n got %+v\nwant %+v", r, want)
	}
	fx := Fixture{Name: "f", Path: "a.jsonl", List: want, Leaf: "b", Context: []string{"a", "b"}, Roots: []string{"a"}}
	got := Found{Info: in, Leaf: "b", Context: []string{"a", "b"}, Roots: []string{"a"}}
	if f := run(t, func(tb testing.TB) { CheckFixture(tb, "x", fx, got) }); len(f) != 0 {
		t.Fatalf("the same: %q", f)
	}
	got = Found{Info: info{Path: "b.jsonl", Format: "y", ID: "s2"}, Leaf: "a", Context: []string{"a"}, Roots: []string{"b"}, Diags: []string{"3"}}
	f := run(t, func(tb testing.TB) { CheckFixture(tb, "x", fx, got) })
	if len(f) != 6 || f[0] != `format "y" path "b.jsonl"` || !strings.HasPrefix(f[1], "list record") || !strings.HasPrefix(f[5], `diagnostics at ["3"]`) {
		t.Errorf("all different: %q", f)
	}
}

// IDs maps indexes (never nil), DiagLines sorts and marks warnings, and
// Read and Reader end the test on an error.
func TestIDsDiagLinesRead(t *testing.T) {
	if got := IDs(0, nil); got == nil || len(got) != 0 {
		t.Errorf("IDs of none: %#v", got)
	}
	if got := IDs(2, func(k int) string { return "e" + strconv.Itoa(k) }); !slices.Equal(got, []string{"e0", "e1"}) {
		t.Errorf("IDs: %q", got)
	}
	type diag struct {
		Line    int
		Warning bool
	}
	if got := DiagLines([]diag{{Line: 12}, {Line: 3, Warning: true}}); !slices.Equal(got, []string{"12", "3w"}) {
		t.Errorf("DiagLines: %q", got)
	}
	if got := DiagLines([]diag(nil)); got != nil {
		t.Errorf("DiagLines of none: %q", got)
	}
	read := func(path string) (int, error) {
		if path == "" {
			return 0, errors.New("no path")
		}
		return len(path), nil
	}
	if f := run(t, func(tb testing.TB) { Read(tb, read, "") }); len(f) != 1 || f[0] != "no path" {
		t.Errorf("Read of an error: %q", f)
	}
	if n := Read(t, read, "abc"); n != 3 {
		t.Errorf("Read: %d", n)
	}
	open := Reader(read)
	if f := run(t, func(tb testing.TB) { open(tb, "") }); len(f) != 1 || f[0] != "no path" {
		t.Errorf("Reader of an error: %q", f)
	}
	if n := open(t, "abcd"); n != 4 {
		t.Errorf("Reader: %d", n)
	}
}

// one is a parsed session for OneRecord: n entries, its leaf, and its
// diagnostics.
type one struct {
	n, leaf     int
	Diagnostics []struct{ Warning bool }
}

func (o *one) Len() int  { return o.n }
func (o *one) Leaf() int { return o.leaf }

// OneRecord passes a session of one entry with one warning and fails any
// other; OpenRefuses fails an open that takes a folder or nothing.
func TestOneRecordOpenRefuses(t *testing.T) {
	parse := func(s *one, err error) func([]byte) (*one, error) {
		return func([]byte) (*one, error) { return s, err }
	}
	warn := []struct{ Warning bool }{{Warning: true}}
	if f := run(t, func(tb testing.TB) { OneRecord(tb, parse(&one{n: 1, Diagnostics: warn}, nil), "{}") }); len(f) != 0 {
		t.Errorf("one entry, one warning: %q", f)
	}
	for _, bad := range []*one{{n: 2, Diagnostics: warn}, {n: 1, leaf: -1, Diagnostics: warn}, {n: 1},
		{n: 1, Diagnostics: []struct{ Warning bool }{{}}}} {
		if f := run(t, func(tb testing.TB) { OneRecord(tb, parse(bad, nil), "{}") }); len(f) != 1 {
			t.Errorf("%+v: %q", bad, f)
		}
	}
	if f := run(t, func(tb testing.TB) { OneRecord(tb, parse(nil, errors.New("no")), "{}") }); len(f) != 1 {
		t.Errorf("an error: %q", f)
	}
	dir := t.TempDir()
	if f := run(t, func(tb testing.TB) { OpenRefuses(tb, os.ReadFile, dir) }); len(f) != 0 {
		t.Errorf("os.ReadFile: %q", f)
	}
	accepts := func(string) (int, error) { return 0, nil }
	if f := run(t, func(tb testing.TB) { OpenRefuses(tb, accepts, dir) }); len(f) != 2 {
		t.Errorf("an open that takes anything: %q", f)
	}
}

func TestAnswers(t *testing.T) {
	isJSONL := func(s string) bool { return strings.HasSuffix(s, ".jsonl") }
	if f := run(t, func(tb testing.TB) { Answers(tb, isJSONL, map[string]bool{"a.jsonl": true, "a.json": false}) }); len(f) != 0 {
		t.Fatalf("%q", f)
	}
	f := run(t, func(tb testing.TB) { Answers(tb, isJSONL, map[string]bool{"a.jsonl": false, "b.jsonl": true}) })
	if !slices.Equal(f, []string{"a.jsonl: true, want false"}) {
		t.Errorf("%q", f)
	}
	var asked []string
	detect := FirstLine(func(line []byte, first bool) bool { asked = append(asked, string(line)); return first })
	if !detect("{}") || !slices.Equal(asked, []string{"{}"}) {
		t.Errorf("FirstLine asked %q", asked)
	}
}
