package safewrite

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// reserve allocates the blocks of [off, off+n) and keeps the size
// (FALLOC_FL_KEEP_SIZE): a reader sees nothing of it, and the write that
// follows fills blocks that are already there.
func reserve(rc syscall.RawConn, off, n int64) error {
	var err error
	if cerr := rc.Control(func(fd uintptr) {
		for {
			err = unix.Fallocate(int(fd), unix.FALLOC_FL_KEEP_SIZE, off, n)
			if err != unix.EINTR {
				return
			}
		}
	}); cerr != nil {
		return nil
	}
	// Only a lack of room is an answer; EOPNOTSUPP (a file system that
	// cannot reserve, as NFS before 4.2), ENOSYS, EPERM (an append-only
	// file) and the rest leave it to the write.
	if errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.EDQUOT) || errors.Is(err, unix.EFBIG) {
		return os.NewSyscallError("fallocate", err)
	}
	return nil
}
