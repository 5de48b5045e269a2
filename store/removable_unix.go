//go:build unix

package store

import (
	"path/filepath"

	"golang.org/x/sys/unix"
)

// removable says why src cannot be removed from its folder (a read-only
// file system, a folder not the user's to write), before a copy is made
// that would then have nowhere to go. A folder's own files are removed
// too, so it must be writable as well.
func removable(src string) error {
	if err := unix.Access(filepath.Dir(src), unix.W_OK); err != nil {
		return err
	}
	var st unix.Stat_t
	if unix.Lstat(src, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
		return unix.Access(src, unix.W_OK)
	}
	return nil
}
