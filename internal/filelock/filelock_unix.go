//go:build unix

package filelock

import (
	"errors"
	"os"
	"syscall"
)

// Lock takes f's exclusive lock, waiting for it.
func Lock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

// Unlock gives f's lock back.
func Unlock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// TryLock takes f's exclusive lock if it is free and reports whether
// another holder has it (false too where the file system has no locks).
// f may be a folder.
func TryLock(f *os.File) (busy bool) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	return errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EINTR)
}

// Alive says whether a process runs with this pid (one we may not signal
// runs too).
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
