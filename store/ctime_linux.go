//go:build linux

package store

import (
	"io/fs"
	"syscall"
)

// changeTime is a file's inode and status-change time (which no program
// can set: any write moves it), for the index's token.
func changeTime(info fs.FileInfo) (ino uint64, ctimeNs int64, ok bool) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Ino, st.Ctim.Sec*1e9 + st.Ctim.Nsec, true
	}
	return 0, 0, false
}
