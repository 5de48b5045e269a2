//go:build unix

package safewrite

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"testing"
)

// A folder's sync that the file system does not support is no failure;
// an I/O error is, and names the folder; a folder that is not there is.
func TestSyncDir(t *testing.T) {
	dir := t.TempDir()
	if err := SyncDir(dir); err != nil {
		t.Fatalf("a real folder: %v", err)
	}
	for _, c := range []struct {
		err  error
		fail bool
	}{
		{nil, false},
		{&fs.PathError{Op: "sync", Path: dir, Err: syscall.EINVAL}, false},
		{&fs.PathError{Op: "sync", Path: dir, Err: syscall.ENOTSUP}, false},
		{&fs.PathError{Op: "sync", Path: dir, Err: syscall.EOPNOTSUPP}, false},
		{&fs.PathError{Op: "sync", Path: dir, Err: syscall.EIO}, true},
	} {
		old := syncFolder
		syncFolder = func(*os.File) error { return c.err }
		err := SyncDir(dir)
		syncFolder = old
		if (err != nil) != c.fail || (c.fail && !errors.Is(err, c.err)) {
			t.Errorf("a sync that says %v: SyncDir says %v", c.err, err)
		}
	}
	if err := SyncDir(dir + "/none"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a folder that is not there: %v", err)
	}
}
