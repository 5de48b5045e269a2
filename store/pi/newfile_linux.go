//go:build linux

package pi

import (
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// openUnnamed opens a file in dir that has no name yet (O_TMPFILE): if the
// writer dies, the kernel frees it and nothing is left behind.
var openUnnamed = func(dir string) (*os.File, error) {
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), dir), nil
}

// unnamedUnsupported says whether openUnnamed failed because the kernel or
// the file system has no O_TMPFILE (kernels before 3.11 take it for
// O_DIRECTORY and say EISDIR).
func unnamedUnsupported(err error) bool {
	return errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EISDIR) || errors.Is(err, unix.EINVAL) || errors.Is(err, errors.ErrUnsupported)
}

// linkUnnamed gives an unnamed file its name; link fails with EEXIST rather
// than replace a file. Without /proc it says errNoLink.
func linkUnnamed(f *os.File, path string) error {
	proc := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	err := unix.Linkat(unix.AT_FDCWD, proc, unix.AT_FDCWD, path, unix.AT_SYMLINK_FOLLOW)
	if err == nil {
		return nil
	}
	if errors.Is(err, unix.EEXIST) {
		return &os.LinkError{Op: "link", Old: proc, New: path, Err: err}
	}
	if errors.Is(err, unix.ENOENT) {
		if _, serr := os.Stat("/proc/self/fd"); serr != nil {
			return errNoLink
		}
	}
	return &os.LinkError{Op: "link", Old: proc, New: path, Err: err}
}
