package formattest

import (
	"bytes"
	"errors"
	"os"
	"syscall"
	"testing"
)

// Tmpfs mounts a tmpfs of size bytes ("256k", "2m") on a folder of the
// test's, unmounted when the test ends, and returns the folder. Mounting
// needs root: without it the test is skipped, since the injected faults
// that the formats' tests make stand in for a real full disk in CI.
func Tmpfs(t testing.TB, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("no tmpfs to fill (%v): the injected faults stand in", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	return dir
}

// FillDisk writes a file at path until its file system is full, down to
// the byte: larger writes first, then smaller ones into what they left. A
// failure other than ENOSPC ends the test.
func FillDisk(t testing.TB, path string) {
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
