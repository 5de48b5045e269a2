//go:build unix

package safewrite

import (
	"errors"
	"syscall"
)

// dirSyncUnsupported is a folder's sync failing because the file system
// cannot sync folders, not because a write failed.
func dirSyncUnsupported(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EOPNOTSUPP)
}
