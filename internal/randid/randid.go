// Package randid draws the random hex strings skein's writers name things
// with: a new entry's id, a new session folder's, a temporary file's or
// folder's. Each writer used to draw them by hand; the draw, and the loop
// that draws again while the name is taken, are written here once.
package randid

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
)

// maxBytes bounds what Hex draws at once: an id of 32 hex digits is more
// than any writer asks for, and a fixed array keeps the draw off the heap.
const maxBytes = 16

// Hex is n random bytes (at most 16) as 2n lowercase hex digits.
func Hex(n int) string {
	var b [maxBytes]byte
	_, _ = rand.Read(b[:n])
	return hex.EncodeToString(b[:n])
}

// Fresh is prefix followed by Hex(n), drawn again while taken says the id
// is in use: a new entry's id never names an entry the session holds.
func Fresh(prefix string, n int, taken func(id string) bool) string {
	for {
		id := prefix + Hex(n)
		if !taken(id) {
			return id
		}
	}
}

// Create calls create with Hex(n) until it does something other than find
// the name taken (fs.ErrExist): a temporary file or folder made
// exclusively under a random name, which another writer may have drawn
// first. It returns the random part create was given last, and create's
// error.
func Create(n int, create func(random string) error) (string, error) {
	for {
		r := Hex(n)
		err := create(r)
		if !errors.Is(err, fs.ErrExist) {
			return r, err
		}
	}
}
