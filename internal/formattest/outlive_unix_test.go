//go:build unix

package formattest

import (
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// A value whose memory is unmapped once the session is gone, as a mapped
// file's would be, faults; the check reports that rather than crashing.
func TestValuesOutliveReportsAFault(t *testing.T) {
	page := syscall.Getpagesize()
	m, err := syscall.Mmap(-1, 0, page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("no anonymous mapping here: %v", err)
	}
	copy(m, "an id in a mapped file")
	kept := unsafe.String(&m[0], 22)
	calls := 0
	failures := run(t, func(tb testing.TB) {
		ValuesOutlive(tb, func() func() []string {
			return func() []string {
				if calls++; calls == 2 {
					syscall.Munmap(m) // the session and its mapping went
				}
				return []string{kept}
			}
		})
	})
	if len(failures) != 1 || !strings.Contains(failures[0], "reading what was kept from a collected session") {
		t.Errorf("failures %q, want the fault reported", failures)
	}
}
