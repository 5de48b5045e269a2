//go:build unix

package cachefile

import "syscall"

// oNonblock keeps the open of a named pipe from waiting for a writer;
// oNoFollow makes it refuse a link.
const (
	oNonblock = syscall.O_NONBLOCK
	oNoFollow = syscall.O_NOFOLLOW
)
