//go:build !unix

package readfile

import (
	"errors"
	"os"
)

// Map maps the first size bytes of f read-only, shared.
func Map(*os.File, int64) ([]byte, error) { return nil, errors.New("no mmap") }

// Unmap unmaps what Map mapped.
func Unmap([]byte) {}
