//go:build !unix

package store

import "io/fs"

// inode is a file's device and inode, which this platform does not give:
// a folder met twice through a link is walked twice.
func inode(info fs.FileInfo) ([2]uint64, bool) { return [2]uint64{}, false }

// device is the file system a path is on, unknown here: the trash is the
// home's.
func device(path string) (uint64, bool) { return 0, false }
