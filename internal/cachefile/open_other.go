//go:build !unix

package cachefile

// Here an open neither waits for a pipe nor refuses a link by a flag: the
// check that the file once open is a regular one stands in.
const (
	oNonblock = 0
	oNoFollow = 0
)
