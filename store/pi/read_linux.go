//go:build linux

package pi

import (
	"io"
	"os"
	"runtime"
	"sync"
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
	n, err := readAtParallel(f, mem, int(size))
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

// readAtParallel reads the first size bytes of f into mem in a part per core
// (copying from the page cache is most of the cost of reading, and each core
// copies its own part), and returns how many bytes are in place: size, or
// fewer when the file was shorter than that.
func readAtParallel(f *os.File, mem []byte, size int) (int, error) {
	parts := min(runtime.GOMAXPROCS(0), 8, max(1, size/(4<<20)))
	start := func(k int) int { return size * k / parts }
	got := make([]int, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for k := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[k], errs[k] = f.ReadAt(mem[start(k):start(k+1)], int64(start(k)))
		}()
	}
	wg.Wait()
	n := 0
	for k := range parts {
		n += got[k]
		if errs[k] == io.EOF || got[k] < start(k+1)-start(k) {
			return n, nil // the file ends in this part: later parts read nothing
		}
		if errs[k] != nil {
			return n, errs[k]
		}
	}
	return n, nil
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
