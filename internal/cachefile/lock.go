package cachefile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Lock takes the exclusive lock of the lock file at path, waiting while
// another process holds it; unlock gives it back. The lock is the open
// file's: a process that dies gives it back, and two opens in one process
// exclude each other as two processes do. A name in the way that is not a
// regular file (a pipe, a link, an empty folder) is replaced.
func Lock(path string) (unlock func(), err error) {
	f, err := openLock(path)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		unlockFile(f)
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
