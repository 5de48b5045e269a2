package pi

import (
	"runtime/debug"
	"sync"
)

// workerPanic hands a panic from a worker goroutine to the goroutine that
// waits for it. A session read from a mapped file (store/pi.OpenMapped)
// faults where the file was cut short under it: the workers ask the runtime
// to make that fault a panic, not a crash (debug.SetPanicOnFault), catch it,
// and the waiting goroutine panics with it again, where the command that
// mapped the file recovers it and says what happened. Any other panic of a
// worker goes the same way, instead of killing the process from a goroutine
// nobody can recover in.
type workerPanic struct {
	once   sync.Once
	first  any
	failed chan struct{} // closed at the first panic
}

func newWorkerPanic() *workerPanic { return &workerPanic{failed: make(chan struct{})} }

// guard is a worker's first statement: `defer wp.guard()()`.
func (wp *workerPanic) guard() func() {
	debug.SetPanicOnFault(true)
	return func() {
		if r := recover(); r != nil {
			wp.once.Do(func() {
				wp.first = r
				close(wp.failed)
			})
		}
	}
}

// rethrow panics with the first worker's panic, if there was one.
func (wp *workerPanic) rethrow() {
	select {
	case <-wp.failed:
		panic(wp.first)
	default:
	}
}
