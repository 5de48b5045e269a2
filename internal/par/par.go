// Package par runs the independent work of a loop on every core.
package par

import (
	"runtime"
	"sync"
)

// Range calls f with the parts [lo, hi) of [0, n), a part per core, at
// once, and waits for them all.
func Range(n int, f func(lo, hi int)) {
	workers := max(1, min(runtime.GOMAXPROCS(0), n))
	if workers == 1 {
		f(0, n)
		return
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*chunk, min(n, (w+1)*chunk)
		if lo < hi {
			wg.Go(func() { f(lo, hi) })
		}
	}
	wg.Wait()
}
