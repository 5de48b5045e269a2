//go:build linux

package pi

import (
	"syscall"

	"skein/internal/hugemem"
	"skein/internal/readfile"
)

// hugeMin is the size from which a session is read into memory advised to
// use transparent huge pages.
const hugeMin = hugemem.Min

// mapFile maps a large file read-only for as long as the process lives and
// returns its bytes; nil (and no error) for a file too small to be worth it.
// The mapping is never unmapped, so that nothing read from it can outlive
// it: only for a process that opens a few sessions and exits (the command
// line's read commands), never for the TUI. The pages are the page cache's:
// no memory is allocated, zeroed or copied for them, which is most of the
// cost of reading a 100 MB session on this machine's kind of VM. A file cut
// short while mapped faults where it is read past its new end: the workers
// of model make that a panic (debug.SetPanicOnFault) and the command
// recovers it (see main's run).
func mapFile(path string) ([]byte, error) {
	f, st, err := readfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := st.Size()
	if size < hugeMin || int64(int(size)) != size {
		return nil, nil
	}
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
}
