//go:build unix

package dhara

import (
	"errors"
	"os"
	"syscall"
)

func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// tryLockFile takes f's exclusive lock if it is free and reports whether
// another holder has it (false too where the file system has no locks).
// f may be a folder.
func tryLockFile(f *os.File) (busy bool) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	return errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EINTR)
}

// alive says whether a process runs with this pid (one we may not signal
// runs too).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// dirSyncUnsupported is a folder's sync failing because the file system
// cannot sync folders, not because a write failed.
func dirSyncUnsupported(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EOPNOTSUPP)
}

// oNoFollow makes an open refuse a symbolic link.
const oNoFollow = syscall.O_NOFOLLOW
