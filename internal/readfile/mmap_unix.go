//go:build unix

package readfile

import (
	"os"
	"syscall"
)

// Map maps the first size bytes of f read-only, shared.
func Map(f *os.File, size int64) ([]byte, error) {
	if size <= 0 || int64(int(size)) != size {
		return nil, syscall.EINVAL
	}
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
}

// Unmap unmaps what Map mapped.
func Unmap(b []byte) { _ = syscall.Munmap(b) }
