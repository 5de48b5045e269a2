package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"skein/internal/readfile"
	"skein/store"
	"syscall"
	"testing"
)

// A folder, a named pipe or a device named as a REF is refused without
// being read, as what it is; a folder named without a separator may still
// be an id prefix, and is refused only when it is not one.
func TestResolveRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	t.Chdir(dir)
	os.Mkdir("sub", 0o755)
	for ref, kind := range map[string]string{dir: "a folder", "sub": "a folder", fifo: "a named pipe", "/dev/null": "a device"} {
		_, err := store.Resolve(ref, []string{dir})
		var nr *store.NotRegularError
		if !errors.As(err, &nr) || nr.Kind != kind {
			t.Errorf("Resolve(%q) = %v, want %s", ref, err, kind)
		}
	}
	for _, path := range []string{fifo, "/dev/null", dir} {
		if f, _, err := readfile.OpenRegular(path); err == nil {
			f.Close()
			t.Errorf("OpenRegular(%s) opened it", path)
		}
	}
}
