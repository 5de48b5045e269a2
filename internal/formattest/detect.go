package formattest

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
)

// Sniffs checks a format's cheap test of a file's first bytes (named name
// in the messages): it must claim each of mine, and leave each of others
// to the other formats.
func Sniffs(t testing.TB, name string, sniff func(head []byte) bool, mine, others []string) {
	t.Helper()
	for _, heads := range []struct {
		heads []string
		want  bool
	}{{mine, true}, {others, false}} {
		for _, h := range heads.heads {
			if got := sniff([]byte(h)); got != heads.want {
				t.Errorf("%s(%.60q) = %v, want %v", name, h, got, heads.want)
			}
		}
	}
}

// NotSession checks that parse refuses each of data with an error that is
// want: bytes that are not a session of the format.
func NotSession[S any](t testing.TB, parse func(data []byte) (S, error), want error, data ...string) {
	t.Helper()
	for _, d := range data {
		if _, err := parse([]byte(d)); !errors.Is(err, want) {
			t.Errorf("Parse(%.40q): %v, want %v", d, err, want)
		}
	}
}

// OpenRefuses checks that open refuses dir, a folder, and a path in it
// where nothing is.
func OpenRefuses[S any](t testing.TB, open func(path string) (S, error), dir string) {
	t.Helper()
	if _, err := open(dir); err == nil {
		t.Error("Open of a folder succeeded")
	}
	if _, err := open(filepath.Join(dir, "none.jsonl")); err == nil {
		t.Error("Open of nothing succeeded")
	}
}

// A Session is what OneRecord asks of a format's parsed session, a
// pointer to a struct whose Diagnostics field is a []model.Diagnostic.
type Session interface {
	Len() int
	Leaf() int
}

// OneRecord checks what parse makes of one record alone, without the line
// that starts a session of the format: a session of that one entry, its
// leaf, and one diagnostic, a warning, which says what is missing.
func OneRecord[S Session](t testing.TB, parse func(data []byte) (S, error), record string) {
	t.Helper()
	s, err := parse([]byte(record))
	if err != nil || s.Len() != 1 || s.Leaf() != 0 {
		t.Fatalf("%.40s alone: %v %+v", record, err, s)
	}
	d := reflect.Indirect(reflect.ValueOf(s)).FieldByName("Diagnostics")
	if d.Len() != 1 || !d.Index(0).FieldByName("Warning").Bool() {
		t.Fatalf("%.40s alone: %+v", record, s)
	}
}

// Answers checks a format's test of a name, a path or a line (its
// Claims, its Detect, its file names' rule): f of each key of want must
// be its value.
func Answers(t testing.TB, f func(s string) bool, want map[string]bool) {
	t.Helper()
	for s, w := range want {
		if got := f(s); got != w {
			t.Errorf("%s: %v, want %v", s, got, w)
		}
	}
}

// FirstLine is a backend's Detect asked of a file's first line, for
// Answers.
func FirstLine(detect func(line []byte, first bool) bool) func(line string) bool {
	return func(line string) bool { return detect([]byte(line), true) }
}
