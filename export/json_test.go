package export

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"skein/internal/synth"
	"skein/store"
)

// allocWriter counts the bytes written to it, keeping none, and notes how
// much the process had allocated when the first of them came.
type allocWriter struct {
	n     int
	first uint64
}

func (w *allocWriter) Write(p []byte) (int, error) {
	if w.n == 0 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		w.first = m.TotalAlloc
	}
	w.n += len(p)
	return len(p), nil
}

// The json export writes its entries as they are made: most of the bytes
// it allocates for them come after its first bytes went out. It built
// every line first, and so held the whole output at once beside what it
// was made from (a 1 GB session: 3.4 GB then 4 GB on the heap).
func TestJSONStreamsEntries(t *testing.T) {
	// One core: the lines are built two parts of 4,096 ahead of the
	// writer, whatever the machine.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := synth.Session(path, "/home/dev/p", 16<<20, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 5); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	var w allocWriter
	if err := JSON(&w, s, now); err != nil {
		t.Fatal(err)
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if after := m.TotalAlloc - w.first; after < uint64(w.n)/2 {
		t.Errorf("%d bytes allocated after the first write, for %d bytes of output: the entries were built before it", after, w.n)
	}
	var out bytes.Buffer
	if err := JSON(&out, s, now); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Meta    map[string]any   `json:"meta"`
		Entries []map[string]any `json:"entries"`
		Tree    map[string]any   `json:"tree"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Entries) < 1000 || doc.Tree == nil || doc.Meta["id"] == nil {
		t.Fatalf("not the document: %v (%d entries)", err, len(doc.Entries))
	}
}
