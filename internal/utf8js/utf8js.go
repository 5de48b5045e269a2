// Package utf8js reads UTF-8 as Node does: pi reads session files with
// readFileSync(path, "utf8"), whose decoder (WHATWG's, as TextDecoder's)
// replaces each maximal subpart of an ill-formed sequence with one U+FFFD.
// Go's utf8 package replaces each bad byte instead, so "\xe2\x82" (a
// three-byte sequence cut short) is one U+FFFD to pi and two to Go; skein
// must show and write what pi reads.
package utf8js

import (
	"strings"
	"unicode/utf8"
)

// DecodeRune is utf8.DecodeRune, except that an ill-formed sequence is
// consumed as Node's decoder consumes it: its maximal subpart (a lead byte
// and the continuation bytes that could still complete it) is one
// utf8.RuneError. size is 0 only for empty b.
func DecodeRune(b []byte) (r rune, size int) {
	r, size = utf8.DecodeRune(b)
	if size != 1 || r != utf8.RuneError {
		return r, size
	}
	return utf8.RuneError, subpart(b[0], len(b), func(i int) byte { return b[i] })
}

// DecodeRuneInString is DecodeRune for a string.
func DecodeRuneInString(s string) (r rune, size int) {
	r, size = utf8.DecodeRuneInString(s)
	if size != 1 || r != utf8.RuneError {
		return r, size
	}
	return utf8.RuneError, subpart(s[0], len(s), func(i int) byte { return s[i] })
}

// subpart is the length of the maximal subpart that starts with lead, an
// ill-formed sequence: the lead byte and the bytes after it that are in the
// range the sequence allows (Unicode's table 3-7), up to one short of a
// whole character.
func subpart(lead byte, n int, at func(int) byte) int {
	lo, hi := byte(0x80), byte(0xBF)
	need := 0
	switch {
	case lead >= 0xC2 && lead <= 0xDF:
		need = 1
	case lead >= 0xE0 && lead <= 0xEF:
		need = 2
		if lead == 0xE0 {
			lo = 0xA0 // not overlong
		} else if lead == 0xED {
			hi = 0x9F // not a surrogate
		}
	case lead >= 0xF0 && lead <= 0xF4:
		need = 3
		if lead == 0xF0 {
			lo = 0x90
		} else if lead == 0xF4 {
			hi = 0x8F // not above U+10FFFF
		}
	default:
		return 1
	}
	size := 1
	for size <= need && size < n {
		if c := at(size); c < lo || c > hi {
			break
		}
		size++
		lo, hi = 0x80, 0xBF
	}
	return size
}

// AppendValid appends b to dst with each ill-formed sequence replaced by
// U+FFFD as Node replaces it. Valid input is copied at the speed of
// utf8.Valid and a copy.
func AppendValid(dst, b []byte) []byte {
	if utf8.Valid(b) {
		return append(dst, b...)
	}
	for len(b) > 0 {
		// Copy the valid run up to the next bad byte in one go.
		i := 0
		for i < len(b) {
			if b[i] < utf8.RuneSelf {
				i++
				continue
			}
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		dst = append(dst, b[:i]...)
		if i == len(b) {
			break
		}
		_, size := DecodeRune(b[i:])
		dst = append(dst, "\uFFFD"...)
		b = b[i+size:]
	}
	return dst
}

// String returns s with each ill-formed sequence replaced as Node replaces
// it; s itself when it is valid.
func String(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string(AppendValid(make([]byte, 0, len(s)+8), []byte(s)))
}

// RuneUnits is how many UTF-16 code units (JavaScript string length) r takes.
func RuneUnits(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// Len16 is the JavaScript length of s: its UTF-16 code units.
func Len16(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := DecodeRuneInString(s[i:])
		n += RuneUnits(r)
		i += size
	}
	return n
}

// Slice16 is JavaScript's s.slice(0, n), never splitting a character.
func Slice16(s string, n int) string {
	units := 0
	for i, r := range s {
		w := RuneUnits(r)
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// Trim is JavaScript's String.prototype.trim.
func Trim(s string) string { return strings.TrimFunc(s, IsSpace) }

// IsSpace reports whether JavaScript's trim removes r (WhiteSpace and
// LineTerminator).
func IsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
