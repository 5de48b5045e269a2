//go:build unix

package store

import (
	"io/fs"
	"syscall"
)

// inode is a file's device and inode, to find a folder met twice.
func inode(info fs.FileInfo) ([2]uint64, bool) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return [2]uint64{uint64(st.Dev), st.Ino}, true
	}
	return [2]uint64{}, false
}

// device is the file system a path is on.
func device(path string) (uint64, bool) {
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil {
		return 0, false
	}
	return uint64(st.Dev), true
}
