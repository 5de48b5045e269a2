//go:build linux

package pi

import (
	"io"
	"os"
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
	n := 0
	for n < len(mem) {
		m, err := f.Read(mem[n:])
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
