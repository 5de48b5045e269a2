//go:build linux

package stamp

import (
	"io/fs"
	"syscall"
)

// ChangeTime is the inode a file is (its device and number) and its
// status-change time, which no program can set: any write moves it, even
// one that keeps the size and puts the modification time back.
func ChangeTime(info fs.FileInfo) (Inode, bool) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return Inode{uint64(st.Dev), st.Ino, st.Ctim.Sec*1e9 + st.Ctim.Nsec}, true
	}
	return Inode{}, false
}
