//go:build unix

package readfile

import "syscall"

// oNonblock keeps the open of a named pipe from waiting for a writer.
const oNonblock = syscall.O_NONBLOCK
