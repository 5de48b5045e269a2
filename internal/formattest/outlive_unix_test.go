//go:build unix

package formattest

import (
	"strings"
	"syscall"
	"testing"
)

// A value in a mapping that goes with the session faults when read; the
// check reports that rather than crashing.
func TestValuesOutliveReportsAFault(t *testing.T) {
	m, err := syscall.Mmap(-1, 0, syscall.Getpagesize(), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("no anonymous mapping here: %v", err)
	}
	copy(m, "id kept")
	failures := outlive(t, m, func(d []byte) { syscall.Munmap(d) })
	if len(failures) != 1 || !strings.Contains(failures[0], "reading what was kept from a collected session") {
		t.Errorf("failures %q, want the fault reported", failures)
	}
}
