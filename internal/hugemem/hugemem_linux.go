// Package hugemem asks the kernel to back large allocations of the Go heap
// with transparent huge pages: filling a 100 MB buffer then costs 50 page
// faults, not 25,000, and each fault is most of the cost of first touching
// fresh memory. It changes how memory is backed, not who owns it: the
// collector frees it as any other.
package hugemem

import (
	"syscall"
	"unsafe"
)

// Min is the size from which advising pays for its system call.
const Min = 8 << 20

// Advise asks for huge pages for the 2 MB-aligned pages inside mem, which
// must not have been touched yet (a page already faulted in stays small).
// This machine's setting is "madvise": nothing is huge unless asked. The
// address is only read, never turned back into a pointer.
func Advise(mem []byte) {
	const huge = 2 << 20
	if len(mem) < Min {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(mem)))
	lo := (start + huge - 1) &^ (huge - 1)
	hi := (start + uintptr(len(mem))) &^ (huge - 1)
	if hi > lo {
		_ = syscall.Madvise(mem[lo-start:hi-start], 14) // MADV_HUGEPAGE
	}
}
