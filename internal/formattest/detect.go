package formattest

import (
	"errors"
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
