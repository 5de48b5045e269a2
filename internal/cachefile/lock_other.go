//go:build !unix && !windows

package cachefile

import "os"

// Here there are no file locks: processes at once each build their own.
func lockFile(*os.File) error { return nil }
func unlockFile(*os.File)     {}
