package formattest

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// FillDisk leaves a tmpfs without room for one more byte, and what it
// wrote is the whole of the tmpfs's pages.
func TestFillDisk(t *testing.T) {
	dir := Tmpfs(t, "64k")
	path := filepath.Join(dir, "filler")
	FillDisk(t, path)
	if st, err := os.Stat(path); err != nil || st.Size() != 64<<10 {
		t.Fatalf("the filler: %v, %v; want 64 KiB", st, err)
	}
	err := os.WriteFile(filepath.Join(dir, "one"), []byte("x"), 0o644)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("a byte more: %v, want ENOSPC", err)
	}
}
