// Package readfile reads a session file of an agent that may still be
// appending to it.
package readfile

import (
	"fmt"
	"io"

	"skein/internal/hugemem"
)

// Regular reads the regular file at path to its end as it is now (an agent
// may be appending: what is read is a prefix of what it writes): the size
// it had when opened in a part per core into memory advised for huge pages
// (hugemem), then whatever was appended since. A path that is not a
// regular file (a folder, a FIFO, a device) is refused without reading.
func Regular(path string) ([]byte, error) {
	f, fi, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int(fi.Size())
	// Room for what is appended while it is read.
	mem := make([]byte, size+size/64+64<<10)
	hugemem.Advise(mem)
	n, err := hugemem.ReadParallel(f, mem[:size], 0)
	if err != nil {
		return nil, err
	}
	data := mem[:n]
	if n < size {
		return data, nil // it was cut short while it was read
	}
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		m, err := f.ReadAt(data[len(data):cap(data)], int64(len(data)))
		data = data[:len(data)+m]
		if err == io.EOF || m == 0 {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Parse reads the regular file at path whole (Regular) and parses it,
// naming the path in a parse error: the Open of a format whose files are
// read whole.
func Parse[T any](path string, parse func([]byte) (T, error)) (T, error) {
	var none T
	data, err := Regular(path)
	if err != nil {
		return none, err
	}
	v, err := parse(data)
	if err != nil {
		return none, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}
