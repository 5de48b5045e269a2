//go:build !linux

package safewrite

import "syscall"

// reserve: only Linux's fallocate is used; elsewhere the write finds out,
// and a failed one is cut off again.
func reserve(syscall.RawConn, int64, int64) error { return nil }
