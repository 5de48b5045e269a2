package pi

import "skein/internal/readfile"

// readFile reads a whole file into memory of the Go heap (readfile.Regular:
// a part per core, huge pages for a large one). Entries, strings and slices
// of a session point into that memory, some of them outliving the session:
// on the heap the collector keeps it for as long as any of them does (an
// anonymous mapping freed with the session was unmapped under them, and
// `session compact` faulted). The slice's capacity is its length: nothing
// appended to it reaches memory a session points into.
func readFile(path string) ([]byte, error) {
	data, err := readfile.Regular(path)
	return data[:len(data):len(data)], err
}

// ReadFile reads a whole regular file, as Open reads a session.
func ReadFile(path string) ([]byte, error) { return readFile(path) }
