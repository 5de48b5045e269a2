package cachefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"skein/internal/filelock"
)

// ErrBusy says another process held the lock for longer than the wait.
var ErrBusy = errors.New("another process holds the lock")

// Lock takes the exclusive lock of the lock file at path, waiting while
// another process holds it, for at most wait (then ErrBusy: a process
// stopped with ^Z, or hung, must not stop every other one); unlock gives it
// back. The lock is the open file's: a process that dies gives it back,
// and two opens in one process exclude each other as two processes do. A
// name in the way that is not a regular file (a pipe, a link, an empty
// folder) is replaced.
func Lock(path string, wait time.Duration) (unlock func(), err error) {
	f, err := openLock(path)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	for pause := time.Millisecond; ; pause = min(2*pause, 100*time.Millisecond) {
		// A file system without locks takes any: processes at once each
		// build their own, as they did before the lock.
		if !filelock.TryLock(f) {
			break
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, ErrBusy
		}
		time.Sleep(pause)
	}
	return func() {
		filelock.Unlock(f)
		f.Close()
	}, nil
}

func openLock(path string) (*os.File, error) {
	if err := MkdirAll(filepath.Dir(path)); err != nil {
		return nil, err
	}
	for try := 0; ; try++ {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|oNonblock|oNoFollow, 0o600)
		if err == nil {
			st, serr := f.Stat()
			if serr == nil && st.Mode().IsRegular() {
				return f, nil
			}
			f.Close()
			if serr != nil {
				return nil, serr
			}
		}
		st, lerr := os.Lstat(path)
		if try > 0 || lerr != nil || st.Mode().IsRegular() {
			if err == nil {
				err = &fs.PathError{Op: "lock", Path: path, Err: ErrNotRegular}
			}
			return nil, err
		}
		if err := os.Remove(path); err != nil {
			return nil, err
		}
	}
}
