//go:build linux

package safewrite

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// RenameNoReplace gives a file or a folder a new name that must not exist:
// the kernel refuses (EEXIST) rather than replace one, as a plain rename
// replaces a file or an empty folder. A file system without the flag gets
// a look first, which leaves a moment for another to appear.
func RenameNoReplace(old, new string) error {
	err := unix.Renameat2(unix.AT_FDCWD, old, unix.AT_FDCWD, new, unix.RENAME_NOREPLACE)
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) {
		return &os.LinkError{Op: "rename", Old: old, New: new, Err: err}
	}
	return renameIfAbsent(old, new)
}
