//go:build !amd64

package jscan

// indexSpecial returns the index of the first quote, backslash or control
// character at or after i, or len(b).
func indexSpecial(b []byte, i int) int { return indexSpecialGo(b, i) }
