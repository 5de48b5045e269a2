package dhara

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// reserve allocates n bytes of f at off, its size unchanged
// (FALLOC_FL_KEEP_SIZE): a full disk fails here, before a byte of an
// append is written. Only a full disk or quota is an error; a file system
// that cannot reserve leaves the write to find out.
func reserve(f *os.File, off, n int64) error {
	if n <= 0 {
		return nil
	}
	err := unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_KEEP_SIZE, off, n)
	if errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.EDQUOT) {
		return &os.PathError{Op: "reserve", Path: f.Name(), Err: err}
	}
	return nil
}
