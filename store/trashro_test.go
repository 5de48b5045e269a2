package store_test

import (
	"os"
	"path/filepath"
	"skein/store"
	"syscall"
	"testing"
)

// A session on a read-only file system other than the home trash's
// cannot be moved: the trash holds no copy of it and no .trashinfo (a copy
// left there would be an orphan no trash tool lists).
func TestTrashCopyFromAReadOnlyFileSystemLeavesNothing(t *testing.T) {
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m"); err != nil {
		t.Skip(err)
	}
	defer syscall.Unmount(mnt, 0)
	src := filepath.Join(mnt, "s.jsonl")
	os.WriteFile(src, []byte(header), 0o600)
	if err := syscall.Mount("", mnt, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skip(err)
	}
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	_, err := store.Trash(src, store.Env{Home: home})
	if err == nil {
		t.Fatal("trashed a file on a read-only file system")
	}
	files, _ := os.ReadDir(filepath.Join(home, "data", "Trash", "files"))
	infos, _ := os.ReadDir(filepath.Join(home, "data", "Trash", "info"))
	if b, _ := os.ReadFile(src); string(b) != header {
		t.Errorf("the session is now %q", b)
	}
	if len(files) != 0 || len(infos) != 0 {
		t.Errorf("failed delete (%v) left %d files and %d trashinfo in the trash", err, len(files), len(infos))
	}
}
