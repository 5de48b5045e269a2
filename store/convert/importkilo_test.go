package convert

import (
	"path/filepath"
	"testing"
	"time"

	"skein/store"
	"skein/store/pi"
)

// A Kilo CLI session (in the kilo.db Kilo 7.7.9 wrote: testdata/agentgen/
// kilo) and a session of OpenCode's older layout (a file of
// storage/session/, testdata/opencode/legacy-home) import into Dhara's
// store and into a pi file pi's reader opens, their format taken from
// their backend (Kilo's name, OpenCode's), each resuming with the source's
// context.
func TestImportKiloAndOpenCodeLegacy(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "agentgen", "kilo", "fixtures", "parallel", "kilo", "kilo.db"))
	kilo, err := store.Discover([]string{db})
	if err != nil || len(kilo) != 1 {
		t.Fatalf("no session in %s: %v %v", db, kilo, err)
	}
	legacy, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "opencode", "legacy-home", ".local", "share", "opencode", "storage", "session", "*", "*.json"))
	if len(legacy) != 3 {
		t.Fatalf("legacy sessions %v", legacy)
	}
	for _, c := range []struct{ path, format string }{{kilo[0], "kilo"}, {legacy[0], "opencode"}, {legacy[2], "opencode"}} {
		s, err := store.Open(c.path)
		if err != nil {
			t.Fatal(err)
		}
		want := len(s.BuildContext(s.Leaf()).Messages)
		for _, to := range []string{"dhara", "pi"} {
			r, _, err := ImportFileSkipping(c.path, Options{To: to, Out: filepath.Join(t.TempDir(), to), Now: time.Unix(1e9, 0)})
			if err != nil || len(r) != 1 {
				t.Fatalf("%s to %s: %v %+v", c.path, to, err, r)
			}
			if r[0].Format != c.format || !r[0].Guessed {
				t.Errorf("%s: read as %q (guessed %v)", c.path, r[0].Format, r[0].Guessed)
			}
			d, err := store.Open(r[0].Path)
			if err != nil {
				t.Fatal(err)
			}
			if to == "pi" {
				if _, err := pi.Open(r[0].Path); err != nil {
					t.Fatal(err)
				}
			}
			if got := len(d.BuildContext(d.Leaf()).Messages); got != want || want < 3 {
				t.Errorf("%s to %s: the session's context has %d messages, the import's %d", c.path, to, want, got)
			}
		}
	}
}
