package formattest

import "testing"

// Throughput runs op once an iteration of b, over size bytes of input, and
// stops the benchmark at op's first error: the loop of every benchmark that
// reads a large session, whose MB/s and allocations benchstat compares.
// b.Loop starts the timer afresh, so the set-up before it is not counted.
func Throughput(b *testing.B, size int64, op func() error) {
	b.Helper()
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
}
