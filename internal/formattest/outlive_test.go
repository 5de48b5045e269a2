package formattest

import (
	"runtime"
	"strings"
	"testing"
)

// session stands for a format's parsed session: its entries' values point
// into data, which a cleanup set by each test reuses or unmaps once the
// session is collected, as a reader with that bug would.
type session struct{ data []byte }

// outlive runs ValuesOutlive on a recorder for a session of data, with
// cleanup run on data once the session is collected, and returns what it
// reported.
func outlive(t *testing.T, data []byte, cleanup func([]byte)) []string {
	return run(t, func(tb testing.TB) {
		open := func(string) (*session, error) {
			s := &session{data: data}
			runtime.AddCleanup(s, cleanup, s.data)
			return s, nil
		}
		keep := func(s *session) []any { return []any{string(s.data[:2]), s.data[3:]} }
		ValuesOutlive(tb, "s", func(string) error { return nil }, open, keep)
	})
}

func TestValuesOutliveReportsAChange(t *testing.T) {
	failures := outlive(t, []byte("id kept"), func(d []byte) { copy(d, "XXXXXXX") })
	if len(failures) != 1 || !strings.Contains(failures[0], "value 1 changed") {
		t.Errorf("failures %q, want one for value 1", failures)
	}
}

func TestValuesOutliveQuiet(t *testing.T) {
	if failures := outlive(t, []byte("id kept"), func([]byte) {}); len(failures) != 0 {
		t.Errorf("failures %q for values that stayed", failures)
	}
}
