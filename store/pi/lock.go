package pi

import "skein/internal/filelock"

// The lock of an open file and whether a process runs: internal/filelock,
// which every format's writer shares.
var (
	lockFile    = filelock.Lock
	unlockFile  = filelock.Unlock
	tryLockFile = filelock.TryLock
	alive       = filelock.Alive
)
