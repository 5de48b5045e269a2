//go:build linux

package pi

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestReadFileLarge reads a file large enough for the parallel read into
// huge pages: the bytes must be the file's, whatever the part boundaries.
func TestReadFileLarge(t *testing.T) {
	for _, size := range []int{hugeMin, 3*hugeMin + 12345} {
		want := make([]byte, size)
		for i := range want {
			want[i] = byte(i*7 + i>>13)
		}
		path := filepath.Join(t.TempDir(), "big.jsonl")
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("size %d: read %d bytes, not the file's", size, len(got))
		}
	}
}
