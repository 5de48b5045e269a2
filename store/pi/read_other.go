//go:build !linux

package pi

import "io"

// readFile reads a whole file into memory of the Go heap, which the
// collector keeps for as long as anything read from the session points
// into it.
func readFile(path string) ([]byte, error) {
	f, _, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// mapFile maps nothing on this platform: sessions are read.
func mapFile(path string) ([]byte, error) { return nil, nil }
