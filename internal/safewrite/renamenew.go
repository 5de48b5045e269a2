package safewrite

import (
	"errors"
	"os"
)

// renameIfAbsent renames old to new when nothing has the name new: a look
// first, which leaves a moment for another file to appear (where the
// kernel has no rename that refuses to replace).
func renameIfAbsent(old, new string) error {
	if _, err := os.Lstat(new); err == nil {
		return &os.LinkError{Op: "rename", Old: old, New: new, Err: os.ErrExist}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.Rename(old, new)
}
