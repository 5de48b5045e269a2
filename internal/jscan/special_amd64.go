package jscan

// indexSpecialSSE2 is indexSpecialGo in SSE2, which every amd64 processor
// has: sixteen bytes in a dozen instructions, for the long strings of
// message text (short ones never get here: see shortString).
//
//go:noescape
func indexSpecialSSE2(b []byte) int

// indexSpecial returns the index of the first quote, backslash or control
// character at or after i, or len(b).
func indexSpecial(b []byte, i int) int { return i + indexSpecialSSE2(b[i:]) }
