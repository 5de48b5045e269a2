package dhara

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// streamEntries writes, over many parts built at once on every core, the
// bytes of the lines in order: what the lines' own bytes joined are.
func TestStreamEntriesInOrder(t *testing.T) {
	for _, n := range []int{0, 1, 4095, 4096, 4097, 50000} {
		b := &builder{}
		var want bytes.Buffer
		for k := range n {
			l := line{id: fmt.Sprintf("e%d", k), typ: TypeCustom, ts: "2026-01-01T00:00:00.000Z",
				fields: []Field{{Key: "customType", Value: []byte(`"x"`)}, {Key: "data", Value: []byte(fmt.Sprintf(`{"k":%d,"pad":%q}`, k, bytes.Repeat([]byte("p"), k%300)))}}}
			b.lines = append(b.lines, l)
			want.Write(l.build())
			want.WriteByte('\n')
		}
		path := filepath.Join(t.TempDir(), EntriesFile)
		if err := b.streamEntries(path); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%d lines: %d bytes written, want %d", n, len(got), want.Len())
		}
		if err := b.streamEntries(path); err == nil {
			t.Fatalf("%d lines: a second write replaced the file", n)
		}
	}
}

// slowWriter takes its first write only once a part past the bound is
// built, or after a while; it counts the writes (a part each).
type slowWriter struct {
	written atomic.Int64
	past    chan struct{}
}

func (w *slowWriter) Write(p []byte) (int, error) {
	if w.written.Load() == 0 {
		select {
		case <-w.past:
		case <-time.After(300 * time.Millisecond):
		}
	}
	w.written.Add(1)
	return len(p), nil
}

// The lines are built at most partsAhead parts a core ahead of a writer
// slower than the cores: they were all built at once, and a 1 GB import
// held its whole output on the heap behind a disk that kept it waiting.
func TestWriteLinesBoundedAhead(t *testing.T) {
	b := &builder{}
	for k := range 40 * 4096 {
		b.lines = append(b.lines, line{id: fmt.Sprintf("e%d", k), typ: TypeCustom, ts: "2026-01-01T00:00:00.000Z",
			fields: []Field{{Key: "customType", Value: []byte(`"x"`)}}})
	}
	bound := int64(runtime.GOMAXPROCS(0) * partsAhead)
	w := &slowWriter{past: make(chan struct{})}
	var mu sync.Mutex
	worst := int64(0)
	partBuilt = func(k int) {
		mu.Lock()
		defer mu.Unlock()
		if ahead := int64(k) - w.written.Load(); ahead > worst {
			if ahead >= bound && worst < bound {
				close(w.past)
			}
			worst = ahead
		}
	}
	defer func() { partBuilt = nil }()
	if err := b.writeLines(w, "", "", "\n", nil); err != nil {
		t.Fatal(err)
	}
	if worst >= bound {
		t.Errorf("a part was built %d parts ahead of the writer, more than %d", worst, bound-1)
	}
	if w.written.Load() != 40 {
		t.Errorf("%d parts written, want 40", w.written.Load())
	}
}
