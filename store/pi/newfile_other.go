//go:build !linux

package pi

import (
	"errors"
	"os"
)

// openUnnamed: only Linux has O_TMPFILE; elsewhere a new file gets a
// temporary name.
var openUnnamed = func(dir string) (*os.File, error) { return nil, errors.ErrUnsupported }

func unnamedUnsupported(err error) bool { return errors.Is(err, errors.ErrUnsupported) }

func linkUnnamed(*os.File, string) error { return errNoLink }
