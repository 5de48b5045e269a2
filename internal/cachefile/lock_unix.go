//go:build unix

package cachefile

import (
	"errors"
	"os"
	"syscall"
)

// tryLockFile takes f's lock if it is free; busy when another holds it.
func tryLockFile(f *os.File) (busy bool, err error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return false, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return true, nil
		case err != syscall.EINTR:
			return false, err
		}
	}
}

func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
