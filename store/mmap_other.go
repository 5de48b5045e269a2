//go:build !unix

package store

import (
	"errors"
	"os"
)

func mmap(*os.File, int64) ([]byte, error) { return nil, errors.New("no mmap") }

func munmap([]byte) {}
