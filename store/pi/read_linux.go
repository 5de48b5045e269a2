//go:build linux

package pi

import (
	"io"
	"os"
	"runtime"
	"sync"
	"syscall"
)

// hugeMin is the size from which a session is read into memory backed by
// transparent huge pages: a 100 MB file then costs 50 page faults, not 25,000.
const hugeMin = 8 << 20

// readFile reads a whole file. Large files go into an anonymous mapping
// advised to use huge pages; the mapping is private to skein (unlike a map
// of the file itself, a file truncated meanwhile cannot fault). release, when
// not nil, unmaps it: call it once nothing points into data any more.
func readFile(path string) (data []byte, release func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := st.Size()
	if size < hugeMin || int64(int(size)) != size {
		data, err := io.ReadAll(f)
		return data, nil, err
	}
	// Room for a file that grew since the stat.
	capacity := int(size) + int(size)/8 + 1<<20
	mem, err := syscall.Mmap(-1, 0, capacity, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		data, err := io.ReadAll(f)
		return data, nil, err
	}
	_ = syscall.Madvise(mem, 14) // MADV_HUGEPAGE
	n, err := readAtParallel(f, mem, int(size))
	if err != nil {
		syscall.Munmap(mem)
		return nil, nil, err
	}
	for n < len(mem) { // what was appended since the stat
		m, err := f.ReadAt(mem[n:], int64(n))
		n += m
		if err == io.EOF || m == 0 {
			break
		}
		if err != nil {
			syscall.Munmap(mem)
			return nil, nil, err
		}
	}
	if n == len(mem) {
		// It kept growing: fall back to an ordinary read of what is there now.
		syscall.Munmap(mem)
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, nil, err
		}
		data, err := io.ReadAll(f)
		return data, nil, err
	}
	return mem[:n:n], func() { syscall.Munmap(mem) }, nil
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
