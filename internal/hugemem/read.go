package hugemem

import (
	"io"
	"os"
	"runtime"
	"sync"
)

// ReadAt reads n bytes of f from off into new memory of the Go heap,
// advised (Advise) when large and filled a part per core, and returns what
// was there: fewer bytes when the file is shorter.
func ReadAt(f *os.File, off int64, n int) ([]byte, error) {
	mem := make([]byte, n)
	Advise(mem)
	got, err := ReadParallel(f, mem, off)
	return mem[:got], err
}

// ReadParallel fills mem from f at off, in a part per core for a large mem
// (copying from the page cache is most of the cost of reading, and each
// core copies its own part), and returns how many bytes are in place:
// len(mem), or fewer when the file ends before.
func ReadParallel(f *os.File, mem []byte, off int64) (int, error) {
	size := len(mem)
	parts := min(runtime.GOMAXPROCS(0), 8, max(1, size/(4<<20)))
	start := func(k int) int { return size * k / parts }
	got := make([]int, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for k := range parts {
		wg.Go(func() {
			got[k], errs[k] = f.ReadAt(mem[start(k):start(k+1)], off+int64(start(k)))
		})
	}
	wg.Wait()
	n := 0
	for k := range parts {
		n += got[k]
		if errs[k] != nil && errs[k] != io.EOF {
			return n, errs[k] // a failed read is no short file
		}
		if errs[k] == io.EOF || got[k] < start(k+1)-start(k) {
			return n, nil // the file ends in this part: later parts read nothing
		}
	}
	return n, nil
}
