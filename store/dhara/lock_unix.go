//go:build unix

package dhara

import "syscall"

// oNoFollow makes an open refuse a symbolic link.
const oNoFollow = syscall.O_NOFOLLOW
