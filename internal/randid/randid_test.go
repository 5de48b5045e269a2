package randid

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Hex gives 2n hex digits, and two draws differ.
func TestHexLength(t *testing.T) {
	for _, n := range []int{4, 8, 16} {
		a, b := Hex(n), Hex(n)
		if len(a) != 2*n || strings.Trim(a, "0123456789abcdef") != "" {
			t.Errorf("Hex(%d) = %q", n, a)
		}
		if a == b {
			t.Errorf("Hex(%d) drew %q twice", n, a)
		}
	}
}

// Fresh draws again while the id is taken, and keeps the prefix.
func TestFreshSkipsTakenIDs(t *testing.T) {
	asked := 0
	id := Fresh("label_", 8, func(id string) bool {
		asked++
		return asked < 3 // the first two are taken
	})
	if asked != 3 || !strings.HasPrefix(id, "label_") || len(id) != len("label_")+16 {
		t.Errorf("Fresh gave %q after %d draws", id, asked)
	}
}

// Create draws again when the name is there, and stops at any other
// error, which it returns.
func TestCreateRetriesOnlyATakenName(t *testing.T) {
	dir := t.TempDir()
	tries := 0
	r, err := Create(8, func(random string) error {
		tries++
		if tries == 1 {
			os.Mkdir(filepath.Join(dir, random), 0o700) // another writer drew it first
		}
		return os.Mkdir(filepath.Join(dir, random), 0o700)
	})
	if err != nil || tries != 2 {
		t.Fatalf("Create: %v after %d tries", err, tries)
	}
	if fi, err := os.Stat(filepath.Join(dir, r)); err != nil || !fi.IsDir() {
		t.Errorf("Create returned %q, not the folder it made: %v", r, err)
	}
	full := errors.New("no space")
	tries = 0
	if _, err := Create(8, func(string) error { tries++; return full }); err != full || tries != 1 {
		t.Errorf("another error: %v after %d tries", err, tries)
	}
	if _, err := Create(8, func(string) error { return &fs.PathError{Op: "mkdir", Err: fs.ErrPermission} }); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("a permission error: %v", err)
	}
}
