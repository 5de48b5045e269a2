package pi

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestInfoOwnsItsMemory scans each fixture from a buffer, then overwrites
// the buffer: store.List reuses one buffer for a worker's files and maps the
// largest, unmapping them after the scan, so no field of an Info may point
// into the bytes it was scanned from.
func TestInfoOwnsItsMemory(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "pi", "store", "*", "*.jsonl"))
	legacy, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "pi", "legacy", "*.jsonl"))
	files = append(files, legacy...)
	if len(files) < 8 {
		t.Fatalf("only %d fixtures", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := ScanInfo(bytes.Clone(data), 1)
		got, gerr := ScanInfo(data, 1)
		for i := range data {
			data[i] = 'x'
		}
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: %v, then %v", f, werr, gerr)
		}
		if math.IsNaN(want.Created) && math.IsNaN(got.Created) {
			want.Created, got.Created = 0, 0
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the record changed with the bytes it was read from:\n got %+v\nwant %+v", f, got, want)
		}
		if got.ID == "" {
			t.Errorf("%s: no id", f)
		}
	}
}
