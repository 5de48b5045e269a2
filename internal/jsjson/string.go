package jsjson

import (
	"unicode/utf8"

	"skein/internal/utf8js"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s as JSON.stringify writes a string. A Go string may
// hold bytes that are not UTF-8 (a file name, a command-line argument): each
// ill-formed sequence is written as one U+FFFD, as Node reads it.
func AppendString(dst []byte, s string) []byte {
	plain, ascii := true, true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			plain = false
			break
		} else if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	dst = append(dst, '"')
	if plain && (ascii || utf8.ValidString(s)) {
		dst = append(dst, s...)
		return append(dst, '"')
	}
	start := 0 // s[start:i] is still to be copied
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
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
