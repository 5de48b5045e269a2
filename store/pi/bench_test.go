package pi

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"skein/internal/formattest"
	"skein/internal/synth"
)

// bigSession is the 100 MB session the model benchmarks use (written once
// per machine by the synth package), or SKEIN_BENCH_SESSION.
func bigSession(b *testing.B) string {
	path := os.Getenv("SKEIN_BENCH_SESSION")
	if path == "" {
		path = filepath.Join(os.TempDir(), "skein-bench-100mb-v2.jsonl")
		if _, err := os.Stat(path); err != nil {
			tmp := path + ".tmp" + time.Now().Format(".150405.000000000")
			if err := synth.Session(tmp, "/home/dev/huge", 100<<20, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 3); err != nil {
				b.Fatal(err)
			}
			os.Rename(tmp, path)
		}
	}
	return path
}

// BenchmarkOpen is opening a 100 MB session from the page cache: the read
// and the index, as `session context` and the TUI do it.
func BenchmarkOpen(b *testing.B) {
	path := bigSession(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	formattest.Throughput(b, st.Size(), func() error {
		s, err := Open(path)
		if err == nil && s.Leaf() < 0 {
			err = errors.New("no leaf")
		}
		return err
	})
}

// BenchmarkContextMapped is the context target as `session context --json`
// does it: the 100 MB session mapped (once: mappings are never unmapped),
// parsed, its context built and written.
func BenchmarkContextMapped(b *testing.B) {
	path := bigSession(b)
	data, err := mapFile(path)
	if err != nil || data == nil {
		b.Skipf("not mapped here: %v", err)
	}
	benchContext(b, data)
}

// benchContext parses data, builds the context at its leaf and writes it,
// once an iteration.
func benchContext(b *testing.B, data []byte) {
	formattest.Throughput(b, int64(len(data)), func() error {
		s, err := Parse(data)
		if err != nil {
			return err
		}
		return s.WriteContextJSON(io.Discard, s.BuildContext(s.Leaf()))
	})
}
