package pi

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"skein/internal/formattest"
	"skein/internal/safewrite"
)

// unreserved hides the file's descriptor, so that nothing is reserved and
// the write itself runs out of room halfway.
type unreserved struct{ safewrite.File }

// On a full tmpfs, an entry longer than the room left in the file's last
// page fails with ENOSPC and leaves the file byte for byte as it was,
// whether its space was reserved first or its write stopped halfway; an
// entry that fits lands whole; once there is room, the long one lands and
// the file parses without a malformed line.
func TestAppendOnAFullDisk(t *testing.T) {
	for _, way := range []struct {
		name string
		file func(*os.File) safewrite.File
	}{{"reserved", func(f *os.File) safewrite.File { return f }}, {"unreserved", func(f *os.File) safewrite.File { return unreserved{f} }}} {
		t.Run(way.name, func(t *testing.T) {
			failWrites(t, way.file)
			dir := formattest.Tmpfs(t, "2m")
			src := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
			path := filepath.Join(dir, filepath.Base(src))
			if err := os.WriteFile(path, formattest.ReadFile(t, src), 0o644); err != nil {
				t.Fatal(err)
			}
			filler := filepath.Join(dir, "filler")
			formattest.FillDisk(t, filler)
			before := formattest.ReadFile(t, path)
			room := 4096 - len(before)%4096
			long := strings.Repeat("a long name ", 2*room/12+1)
			_, err := Rename(path, long)
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("err %v", err)
			}
			if got := formattest.ReadFile(t, path); !bytes.Equal(got, before) {
				t.Fatalf("the file grew from %d to %d bytes", len(before), len(got))
			}
			if room > 200 {
				if _, err := Rename(path, "short"); err != nil {
					t.Errorf("an entry that fits the last page (%d bytes left): %v", room, err)
				}
			}
			os.Remove(filler)
			if _, err := Rename(path, long); err != nil {
				t.Fatal(err)
			}
			s := parse(t, path)
			if len(s.Diagnostics) != 0 || s.Name() != SessionName(long) {
				t.Errorf("diagnostics %v", s.Diagnostics)
			}
		})
	}
}
