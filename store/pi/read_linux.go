//go:build linux

package pi

import (
	"io"
	"syscall"

	"skein/internal/hugemem"
)

// hugeMin is the size from which a session is read into memory advised to
// use transparent huge pages.
const hugeMin = hugemem.Min

// readFile reads a whole file into memory of the Go heap. Entries, strings
// and slices of a session point into that memory, some of them outliving the
// session: on the heap the collector keeps it for as long as any of them
// does (an anonymous mapping freed with the session was unmapped under them,
// and `session compact` faulted). Large files are read in a part per core
// into an allocation whose aligned interior is advised to use huge pages.
func readFile(path string) ([]byte, error) {
	f, st, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := st.Size()
	if size < hugeMin || int64(int(size)) != size {
		return io.ReadAll(f)
	}
	// Room for a file that grew since the stat.
	mem := make([]byte, int(size)+int(size)/8+1<<20)
	hugemem.Advise(mem)
	n, err := hugemem.ReadParallel(f, mem[:size], 0)
	if err != nil {
		return nil, err
	}
	for n < len(mem) { // what was appended since the stat
		m, err := f.ReadAt(mem[n:], int64(n))
		n += m
		if err == io.EOF || m == 0 {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if n == len(mem) {
		// It kept growing: fall back to an ordinary read of what is there now.
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		return io.ReadAll(f)
	}
	return mem[:n:n], nil
}

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
	f, st, err := OpenRegular(path)
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
