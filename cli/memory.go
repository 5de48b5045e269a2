package cli

import (
	"os"
	"runtime/debug"
)

// oneShot tunes the collector for a command that reads, prints and exits:
// no collection by heap growth (which would rescan every entry of a large
// session several times while it is read), only when memory nears a limit.
func oneShot() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(-1)
		oneShotLimit = 256 << 20
		debug.SetMemoryLimit(oneShotLimit)
	}
}

// oneShotLimit is the memory limit oneShot set, 0 when it set none.
var oneShotLimit int64

// roomForSession raises oneShot's limit by the size of the session about to
// be read: its bytes are on the heap, where the limit counts them, for as
// long as the command runs, and without the room a session of a few
// hundred megabytes was collected again and again (250 MB: 7 to 10
// collections instead of 1; a 1 GB Dhara folder or Claude Code log, read
// under the bare 256 MB limit, hundreds). A folder's size is its files'.
func roomForSession(path string) {
	if oneShotLimit == 0 {
		return
	}
	if n := sessionBytes(path); n > 0 {
		debug.SetMemoryLimit(oneShotLimit + n + n/8)
	}
}

// roomForMapped lowers the limit roomForSession set, once a pi session has
// been mapped: its bytes are the page cache's, and what the heap keeps of
// it (the entries, the id table: 340 MB for 1 GB) is about a third of its
// size. Without this room a 1 GB session's context ran 578 collections, 3.5
// minutes instead of 12 s.
func roomForMapped(path string) {
	if oneShotLimit == 0 {
		return
	}
	if n := sessionBytes(path); n > 0 {
		debug.SetMemoryLimit(oneShotLimit + n/2)
	}
}

// sessionBytes is the size of a session file, or of the files of a
// session folder (Dhara's keeps its session in the files at its top).
func sessionBytes(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	if st.Mode().IsRegular() {
		return st.Size()
	}
	if !st.IsDir() {
		return 0
	}
	des, _ := os.ReadDir(path)
	var n int64
	for _, de := range des {
		if fi, err := de.Info(); err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
	}
	return n
}
