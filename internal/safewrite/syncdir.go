package safewrite

import (
	"fmt"
	"os"
)

// SyncDir syncs the folder dir, so that the names just made, renamed or
// removed in it survive a crash: every writer of skein's does it after a
// rename or a link. A file system that cannot sync a folder is not an
// error (a rename stands there without it); any other failure is, since
// the new name may then be lost.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := syncFolder(d); err != nil && !dirSyncUnsupported(err) {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// syncFolder is a folder's sync; tests make it fail.
var syncFolder = (*os.File).Sync
