package jscan

import (
	"encoding/binary"
	"math/bits"
)

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// specialMask flags, in the top bit of each byte, the bytes of x that are a
// quote, a backslash or a control character (SWAR: eight bytes a step). Only
// the lowest flag is exact, which is all a search for the first needs.
func specialMask(x uint64) uint64 {
	// Flipping bit 1 maps the quote (0x22) to 0x20 and keeps control
	// characters below 0x20: one "less than 0x21" test finds both.
	low := x ^ (lsb * 0x02)
	bslash := x ^ (lsb * '\\')
	return ((low-lsb*0x21)&^low | (bslash-lsb)&^bslash) & msb
}

func isSpecial(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }

// indexSpecialGo returns the index of the first quote, backslash or control
// character at or after i, or len(b): sixteen bytes a step, each step's
// slice bounds-checked once. (amd64 uses a vector version.)
func indexSpecialGo(b []byte, i int) int {
	for ; i+16 <= len(b); i += 16 {
		w := b[i : i+16]
		m0 := specialMask(binary.LittleEndian.Uint64(w))
		m1 := specialMask(binary.LittleEndian.Uint64(w[8:]))
		if m0|m1 != 0 {
			if m0 != 0 {
				return i + bits.TrailingZeros64(m0)>>3
			}
			return i + 8 + bits.TrailingZeros64(m1)>>3
		}
	}
	for ; i < len(b); i++ {
		if isSpecial(b[i]) {
			return i
		}
	}
	return i
}

// shortString returns the end of the string literal at data[i] when its
// closing quote is among the next sixteen bytes with nothing to check before
// it, as it is for most keys, ids and names; otherwise 0.
func shortString(data []byte, i int) int {
	if i+17 > len(data) {
		return 0
	}
	w := data[i+1 : i+17]
	j := 0
	m := specialMask(binary.LittleEndian.Uint64(w))
	if m == 0 {
		if m = specialMask(binary.LittleEndian.Uint64(w[8:])); m == 0 {
			return 0
		}
		j = 8
	}
	j += bits.TrailingZeros64(m) >> 3
	if w[j] != '"' {
		return 0
	}
	return i + 2 + j
}

// digitsEnd returns the index of the first byte at or after i that is not
// an ASCII digit, or len(data): eight bytes a step. In x+0x46 and x-0x30, a
// byte's top bit is set exactly when it is above '9' or below '0' (or both
// wrap, for bytes from 0xba); carries and borrows only reach the bytes above
// the first such byte, so the lowest flag is exact.
func digitsEnd(data []byte, i int) int {
	for ; i+8 <= len(data); i += 8 {
		x := binary.LittleEndian.Uint64(data[i : i+8])
		if m := ((x + lsb*0x46) | (x - lsb*0x30)) & msb; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(data) && data[i] >= '0' && data[i] <= '9'; i++ {
	}
	return i
}

// Plain reports whether b has no backslash and no byte from 0x80: a string
// body whose bytes are its value. Eight bytes a step.
func Plain(b []byte) bool {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		bs := x ^ (lsb * '\\')
		if (x|(bs-lsb)&^bs)&msb != 0 {
			return false
		}
	}
	for ; i < len(b); i++ {
		if b[i] == '\\' || b[i] >= 0x80 {
			return false
		}
	}
	return true
}

// plainEnd is the index of the first backslash or byte from 0x80 at or
// after i in b, len(b) for none: Plain's test, eight bytes a step.
func plainEnd(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		bs := x ^ (lsb * '\\')
		if m := (x | (bs-lsb)&^bs) & msb; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(b); i++ {
		if b[i] == '\\' || b[i] >= 0x80 {
			return i
		}
	}
	return i
}
