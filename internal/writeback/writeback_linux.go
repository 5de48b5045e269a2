package writeback

import (
	"os"

	"golang.org/x/sys/unix"
)

// Start asks the kernel to start writing n bytes of f at off to the disk,
// without waiting: a sync after it waits only for what is still in flight.
// A failure only means the sync does all the work.
func Start(f *os.File, off, n int64) {
	_ = unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
