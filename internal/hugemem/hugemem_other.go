//go:build !linux

// Package hugemem asks the kernel to back large allocations with huge
// pages; on this platform it does nothing.
package hugemem

// Min is the size from which advising pays for its system call.
const Min = 8 << 20

// Advise does nothing here.
func Advise(mem []byte) {}
