package jsjson

import (
	"math/bits"
	"unicode/utf8"

	"skein/internal/utf8js"
)

const hexDigits = "0123456789abcdef"

// AppendKey appends an object member's name and its colon: what comes
// before the value.
func AppendKey(dst []byte, name string) []byte {
	return append(AppendString(dst, name), ':')
}

// AppendStrings appends list as JSON.stringify writes an array of strings.
func AppendStrings(dst []byte, list []string) []byte {
	dst = append(dst, '[')
	for i, s := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, s)
	}
	return append(dst, ']')
}

// AppendString appends s as JSON.stringify writes a string. A Go string may
// hold bytes that are not UTF-8 (a file name, a command-line argument): each
// ill-formed sequence is written as one U+FFFD, as Node reads it.
func AppendString(dst []byte, s string) []byte {
	i := plainRun(s, 0)
	dst = append(dst, '"')
	if i == len(s) {
		dst = append(dst, s...)
		return append(dst, '"')
	}
	start := 0 // s[start:i] is still to be copied
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i = plainRun(s, i+1)
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			_, size = utf8js.DecodeRuneInString(s[i:])
			i += size
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = appendEscaped(dst, rune(c))
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plainRun is the index of the first byte from i that JSON.stringify does
// not copy as it is (a control character, a quote, a backslash) or that
// starts a multi-byte sequence, len(s) for none: eight bytes a step.
func plainRun(s string, i int) int {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		q, b := x^(lsb*'"'), x^(lsb*'\\')
		// A byte below 0x20, a zero byte of q or b (a quote, a backslash),
		// a high bit: the lowest byte flagged is exact, since a borrow
		// runs only upward, past a byte that is flagged itself.
		m := ((x-lsb*0x20)&^x | (q-lsb)&^q | (b-lsb)&^b | x) & msb
		if m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return i
		}
	}
	return i
}

// appendEscaped writes a quote, a backslash or a control character (below
// U+0020) escaped as JSON.stringify escapes it.
func appendEscaped(dst []byte, c rune) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', byte(c))
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return appendU(dst, c)
}

// appendU writes \uxxxx, lower case as JSON.stringify writes it.
func appendU(dst []byte, u rune) []byte {
	return append(dst, '\\', 'u', hexDigits[u>>12&15], hexDigits[u>>8&15], hexDigits[u>>4&15], hexDigits[u&15])
}
