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

// smallTmpfs mounts a 2 MB tmpfs for the test, which needs root; without
// it the test is skipped (the injected faults cover the same ground).
func smallTmpfs(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=2m"); err != nil {
		t.Skipf("mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	return dir
}

// fillDisk writes to path until the file system is full, down to the byte.
func fillDisk(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for chunk := 64 << 10; chunk > 0; chunk /= 4 {
		buf := bytes.Repeat([]byte{'x'}, chunk)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				break
			}
		}
	}
}

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
			dir := smallTmpfs(t)
			src := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
			path := filepath.Join(dir, filepath.Base(src))
			if err := os.WriteFile(path, formattest.ReadFile(t, src), 0o644); err != nil {
				t.Fatal(err)
			}
			filler := filepath.Join(dir, "filler")
			fillDisk(t, filler)
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
