package formattest

import (
	"reflect"
	"slices"
	"strconv"
	"testing"

	"skein/internal/jsdate"
)

// Record is what a format's tests work out by hand of a file's list
// record: its names and counts, and its times as the list's JSON writes
// them (ISO 8601 UTC, "" for none).
type Record struct {
	ID, Cwd, Name, Created, Modified, FirstMessage, Model string
	MessageCount, Entries, Branches                       int
}

// RecordOf is a list record's Record. info is a model.SessionInfo (or a
// pointer to one), read by its fields' names, since this package imports
// no model.
func RecordOf(info any) Record {
	v := reflect.Indirect(reflect.ValueOf(info))
	str := func(name string) string { return v.FieldByName(name).String() }
	num := func(name string) int { return int(v.FieldByName(name).Int()) }
	iso := func(name string) string {
		s, _ := jsdate.ISO(v.FieldByName(name).Float())
		return s
	}
	return Record{ID: str("ID"), Cwd: str("Cwd"), Name: str("Name"), Created: iso("Created"), Modified: iso("Modified"),
		FirstMessage: str("FirstMessage"), Model: str("Model"),
		MessageCount: num("MessageCount"), Entries: num("Entries"), Branches: num("Branches")}
}

// A Fixture is what a format's test worked out by hand for one of its
// files, from what the format's agent does with it: the list record, the
// id of the leaf, the ids of the context's messages at the leaf, the ids
// of the roots, and the lines the diagnostics name.
type Fixture struct {
	Name, Path            string
	List                  Record
	Leaf                  string
	Context, Roots, Diags []string
}

// Found is what a format's code made of a fixture's file, in a Fixture's
// terms: Info is its list record (a model.SessionInfo, see RecordOf), and
// Diagnostics is printed beside the lines when they differ.
type Found struct {
	Info                  any
	Leaf                  string
	Context, Roots, Diags []string
	Diagnostics           any
}

// Fixtures runs a subtest per fixture: read reads its file (and checks
// there what is the format's own), and what it found must be what the
// fixture says, its list record naming format and the fixture's path.
func Fixtures(t *testing.T, format string, fixtures []Fixture, read func(t *testing.T, path string) Found) {
	for _, fx := range fixtures {
		t.Run(fx.Name, func(t *testing.T) { CheckFixture(t, format, fx, read(t, fx.Path)) })
	}
}

// CheckFixture reports each way got differs from what fx says.
func CheckFixture(t testing.TB, format string, fx Fixture, got Found) {
	t.Helper()
	info := reflect.Indirect(reflect.ValueOf(got.Info))
	if f, p := info.FieldByName("Format").String(), info.FieldByName("Path").String(); f != format || p != fx.Path {
		t.Errorf("format %q path %q", f, p)
	}
	if r := RecordOf(got.Info); r != fx.List {
		t.Errorf("list record\n got %+v\nwant %+v", r, fx.List)
	}
	if got.Leaf != fx.Leaf {
		t.Errorf("leaf %q, want %q", got.Leaf, fx.Leaf)
	}
	if !slices.Equal(got.Context, fx.Context) {
		t.Errorf("context %q\n   want %q", got.Context, fx.Context)
	}
	if !slices.Equal(got.Roots, fx.Roots) {
		t.Errorf("roots %q, want %q", got.Roots, fx.Roots)
	}
	if !slices.Equal(got.Diags, fx.Diags) {
		t.Errorf("diagnostics at %q, want %q: %v", got.Diags, fx.Diags, got.Diagnostics)
	}
}

// Read is what read makes of the file at path, or the test's end.
func Read[S any](t testing.TB, read func(path string) (S, error), path string) S {
	t.Helper()
	s, err := read(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Reader is Read with its read fixed: the open(t, path) of a format's
// tests, which fails the test when the file does not open.
func Reader[S any](read func(path string) (S, error)) func(t testing.TB, path string) S {
	return func(t testing.TB, path string) S {
		t.Helper()
		return Read(t, read, path)
	}
}

// IDs is id(k) for k from 0 to n-1: the ids of n entries, [] for none.
func IDs(n int, id func(k int) string) []string {
	out := []string{}
	for k := range n {
		out = append(out, id(k))
	}
	return out
}

// DiagLines are the lines of diagnostics (a []model.Diagnostic, read by
// its fields' names), sorted, warnings marked "w"; nil for none.
func DiagLines(diagnostics any) []string {
	v := reflect.ValueOf(diagnostics)
	var out []string
	for i := range v.Len() {
		d := v.Index(i)
		l := strconv.Itoa(int(d.FieldByName("Line").Int()))
		if d.FieldByName("Warning").Bool() {
			l += "w"
		}
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// NoDiagnostics fails the test when s, a format's parsed session (a
// pointer to a struct whose Diagnostics field is a []model.Diagnostic),
// has a diagnostic: a file its agent wrote reads without one.
func NoDiagnostics(t testing.TB, s any) {
	t.Helper()
	if d := reflect.Indirect(reflect.ValueOf(s)).FieldByName("Diagnostics"); d.Len() > 0 {
		t.Errorf("diagnostics: %v", d.Interface())
	}
}

// OpenClean is what open makes of the file at path, which must open
// (or the test ends) and have no diagnostic (NoDiagnostics).
func OpenClean[S any](t testing.TB, open func(path string) (S, error), path string) S {
	t.Helper()
	s, err := open(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	NoDiagnostics(t, s)
	return s
}
