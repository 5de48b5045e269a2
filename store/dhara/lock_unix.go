//go:build unix

package dhara

import (
	"os"
	"syscall"
)

func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// oNoFollow makes an open refuse a symbolic link.
const oNoFollow = syscall.O_NOFOLLOW
