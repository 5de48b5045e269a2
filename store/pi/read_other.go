//go:build !linux

package pi

import "os"

// readFile reads a whole file into memory of the Go heap, which the
// collector keeps for as long as anything read from the session points
// into it.
func readFile(path string) ([]byte, error) { return os.ReadFile(path) }
