//go:build darwin

package store

import (
	"io/fs"
	"syscall"
)

// changeTime is the inode a file is (its device and number) and its
// status-change time, which no program can set: any write moves it.
func changeTime(info fs.FileInfo) (inodeStamp, bool) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return inodeStamp{uint64(st.Dev), st.Ino, st.Ctimespec.Sec*1e9 + st.Ctimespec.Nsec}, true
	}
	return inodeStamp{}, false
}
