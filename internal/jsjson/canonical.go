package jsjson

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// Canonical reports whether raw, one valid JSON value, is already byte for
// byte what JSON.stringify(JSON.parse(raw)) writes: valid UTF-8, no space,
// only the escapes JSON.stringify writes, numbers in JavaScript's form,
// no key twice in an object and keys that are array indexes ("0", "1", ...)
// first and in order, as JavaScript orders an object's keys. The UTF-8 is
// checked in one utf8.Valid pass, and strings are read escape by escape
// only when raw may hold an escape JSON.stringify does not write; otherwise
// the walk skips from quote to quote. Nothing is allocated for the objects
// of a session (a few levels, a few keys each).
func Canonical(raw []byte) bool {
	if !utf8.Valid(raw) {
		return false
	}
	return walk(raw, mayHaveOtherEscapes(raw))
}

// Copyable reports whether raw, one valid JSON value read from a file, may
// be copied into pi-compatible output as it is: its bytes are valid UTF-8
// and it has no escape but those JSON.stringify writes, which is always so
// of what pi writes. It does not look at numbers, space or keys as
// Canonical does: that walk costs about as much again as reading the file,
// for what only a hand-edited file could hold, and a copy is the same value
// anyway. It runs at the speed of utf8.Valid and a search for backslashes.
func Copyable(raw []byte) bool {
	return utf8.Valid(raw) && !mayHaveOtherEscapes(raw)
}

// mayHaveOtherEscapes reports whether raw may hold an escape other than
// \b \f \n \r \t \" and \\: a backslash before a u or a slash (which may
// also be an escaped backslash before the letter).
func mayHaveOtherEscapes(raw []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(raw[i:], '\\')
		if j < 0 {
			return false
		}
		i += j + 1
		if i < len(raw) && (raw[i] == 'u' || raw[i] == '/') {
			return true
		}
		i++ // the escaped character, a backslash perhaps
	}
}

// walk checks raw's structure, keys and numbers, and its strings' escapes
// when escapes is set; otherwise strings are only skipped.
func walk(raw []byte, escapes bool) bool {
	// The buffers are locals, and no pointer to them is stored, so that they
	// stay on the goroutine's stack.
	var stackBuf [16]frame
	var keysBuf [32]span
	stack, keys := stackBuf[:0], keysBuf[:0]
	i := 0
	expectKey := false
	for {
		if i >= len(raw) {
			return false
		}
		switch ch := raw[i]; {
		case ch == '"':
			end, ok := 0, false
			if escapes {
				end, ok = canonicalString(raw, i)
			} else {
				end, ok = skipString(raw, i)
			}
			if !ok {
				return false
			}
			if expectKey {
				if end >= len(raw) || raw[end] != ':' {
					return false
				}
				// Most keys are names, new in an object of a few: one bit of
				// a 64-bit filter says so without a comparison.
				top := &stack[len(stack)-1]
				k := span{i + 1, end - 1}
				bit := uint64(1) << (keyHash(raw, k) & 63)
				if top.bloom&bit == 0 && top.set == nil && len(keys)-top.keys < manyKeys && !isDigit(raw[k.start]) {
					top.bloom |= bit
					top.named = true
					keys = append(keys, k)
				} else if keys, ok = key(raw, top, keys, k); !ok {
					return false
				}
				i, expectKey = end+1, false
				continue
			}
			i = end
		case ch == '{':
			if i+1 < len(raw) && raw[i+1] == '}' {
				i += 2
				break
			}
			stack = append(stack, frame{object: true, keys: len(keys), lastIndex: -1})
			i, expectKey = i+1, true
			continue
		case ch == '[':
			if i+1 < len(raw) && raw[i+1] == ']' {
				i += 2
				break
			}
			stack = append(stack, frame{keys: len(keys)})
			i++
			continue
		case ch == 't':
			if !literal(raw, i, "true") {
				return false
			}
			i += 4
		case ch == 'f':
			if !literal(raw, i, "false") {
				return false
			}
			i += 5
		case ch == 'n':
			if !literal(raw, i, "null") {
				return false
			}
			i += 4
		case ch == '-' || ch >= '0' && ch <= '9':
			end, ok := canonicalNumber(raw, i)
			if !ok {
				return false
			}
			i = end
		default:
			return false // space, or not JSON
		}
		// After a value: a comma, or the end of one or more containers.
		for {
			if len(stack) == 0 {
				return i == len(raw)
			}
			if i >= len(raw) {
				return false
			}
			top := &stack[len(stack)-1]
			ch := raw[i]
			i++
			if ch == ',' {
				expectKey = top.object
				break
			}
			if ch != "]}"[b2i(top.object)] {
				return false
			}
			keys = keys[:top.keys]
			stack = stack[:len(stack)-1]
		}
	}
}

// frame is an open object or array.
type frame struct {
	object    bool
	named     bool   // a key that is not an array index was seen
	keys      int    // where this object's keys start in the list of keys
	lastIndex int64  // the last array-index key, -1 for none
	bloom     uint64 // a bit for each key's keyHash
	set       map[string]struct{}
}

// keyHash is a cheap hash of a key for frame.bloom: its length, first and
// last bytes (the body of an empty key is raw's closing quote, which is fine).
func keyHash(raw []byte, k span) uint {
	return uint(k.end-k.start)*131 + uint(raw[k.start])*31 + uint(raw[k.end-1])
}

func isDigit(c byte) bool { return c-'0' < 10 }

// span is a key's place in raw.
type span struct{ start, end int }

// manyKeys is the number of keys past which an object's keys are looked up
// in a map rather than compared one by one.
const manyKeys = 16

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func literal(raw []byte, i int, lit string) bool {
	return len(raw)-i >= len(lit) && string(raw[i:i+len(lit)]) == lit
}

// key checks k, the next key (the body of a canonical string literal) of
// the innermost object top, whose keys so far end keys. Canonical escapes
// spell each string one way only, so keys that are equal as strings are
// equal as bytes.
func key(raw []byte, top *frame, keys []span, k span) ([]span, bool) {
	kb := raw[k.start:k.end]
	if n, ok := arrayIndex(kb); ok {
		// Index keys are unique when they only grow.
		if top.named || n <= top.lastIndex {
			return keys, false
		}
		top.lastIndex = n
		return keys, true
	}
	top.named = true
	if top.set != nil {
		if _, dup := top.set[string(kb)]; dup {
			return keys, false
		}
		top.set[string(kb)] = struct{}{}
		return keys, true
	}
	for _, prev := range keys[top.keys:] {
		if string(raw[prev.start:prev.end]) == string(kb) {
			return keys, false
		}
	}
	top.bloom |= 1 << (keyHash(raw, k) & 63)
	if len(keys)-top.keys < manyKeys {
		return append(keys, k), true
	}
	top.set = make(map[string]struct{}, 2*manyKeys)
	for _, prev := range keys[top.keys:] {
		top.set[string(raw[prev.start:prev.end])] = struct{}{}
	}
	top.set[string(kb)] = struct{}{}
	return keys[:top.keys], true
}

// arrayIndex reads a key that JavaScript treats as an array index: the
// canonical decimal form of an integer from 0 to 2^32-2.
func arrayIndex(k []byte) (int64, bool) {
	if len(k) == 0 || len(k) > 10 || k[0] < '0' || k[0] > '9' || k[0] == '0' && len(k) > 1 {
		return 0, false
	}
	var n int64
	for _, c := range k {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, n <= 1<<32-2
}

// skipString returns the index just past the string literal at
// raw[i] == '"', a valid one: past the first quote after it that is not
// escaped, which an even run of backslashes before it says.
func skipString(raw []byte, i int) (int, bool) {
	p := i + 1
	for {
		q := p
		// Most keys and values end within 32 bytes: a few words read
		// before a call to IndexByte.
		for k := 0; k < 4 && q+8 <= len(raw); k++ {
			if m := hasByte(binary.LittleEndian.Uint64(raw[q:]), '"'); m != 0 {
				q += bits.TrailingZeros64(m) / 8
				goto found
			}
			q += 8
		}
		if n := bytes.IndexByte(raw[q:], '"'); n >= 0 {
			q += n
		} else {
			return 0, false
		}
	found:
		n := 0
		for q-1-n > i && raw[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q + 1, true
		}
		p = q + 1
	}
}

// canonicalString checks the escapes of the string literal at raw[i] ==
// '"' and returns the index just past it.
func canonicalString(raw []byte, i int) (int, bool) {
	p := i + 1
	for {
		for p+8 <= len(raw) {
			if m := hasByte(binary.LittleEndian.Uint64(raw[p:]), '"') | hasByte(binary.LittleEndian.Uint64(raw[p:]), '\\'); m != 0 {
				// The lowest flag is exact (borrows only go upwards).
				p += bits.TrailingZeros64(m) / 8
				goto found
			}
			p += 8
		}
		for p < len(raw) && raw[p] != '"' && raw[p] != '\\' {
			p++
		}
	found:
		if p >= len(raw) {
			return 0, false
		}
		if raw[p] == '"' {
			return p + 1, true
		}
		if p+1 >= len(raw) {
			return 0, false
		}
		switch raw[p+1] {
		case '"', '\\', 'b', 'f', 'n', 'r', 't':
			p += 2
		case 'u':
			u, lower, ok := hex4(raw, p+2)
			if !ok || !lower {
				return 0, false
			}
			switch {
			case u < 0x20:
				if u == '\b' || u == '\t' || u == '\n' || u == '\f' || u == '\r' {
					return 0, false // written short
				}
			case u >= 0xD800 && u <= 0xDBFF:
				// A pair is a character, which JSON.stringify writes as such.
				if lo, _, ok := hex4(raw, p+8); ok && raw[p+6] == '\\' && raw[p+7] == 'u' && lo >= 0xDC00 && lo <= 0xDFFF {
					return 0, false
				}
			case u >= 0xDC00 && u <= 0xDFFF:
				// A lone low surrogate: a high one before it was seen above.
			default:
				return 0, false // written as the character itself
			}
			p += 6
		default:
			return 0, false // \/ is written /
		}
	}
}

const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// hasByte flags the bytes of w that are c, the lowest exactly.
func hasByte(w uint64, c byte) uint64 {
	x := w ^ (lowBits * uint64(c))
	return (x - lowBits) &^ x & highBits
}

// hex4 reads the four hex digits at raw[i:i+4]; lower says none is an upper
// case letter.
func hex4(raw []byte, i int) (u rune, lower, ok bool) {
	if i+4 > len(raw) {
		return 0, false, false
	}
	lower = true
	for _, c := range raw[i : i+4] {
		u <<= 4
		switch {
		case c >= '0' && c <= '9':
			u |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			u |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			u |= rune(c-'A') + 10
			lower = false
		default:
			return 0, false, false
		}
	}
	return u, lower, true
}

// canonicalNumber checks the number at raw[i] and returns the index just
// past it. Fifteen significant digits always read back as themselves (a
// double holds 15 decimal digits), so such an integer, or a decimal in the
// range JavaScript writes without an exponent and without trailing zeros, is
// already in JavaScript's form; anything else is formatted and compared.
func canonicalNumber(raw []byte, i int) (int, bool) {
	j := i
	if raw[j] == '-' {
		j++
	}
	intStart := j
	for j < len(raw) && raw[j] >= '0' && raw[j] <= '9' {
		j++
	}
	intEnd := j
	if j == len(raw) || raw[j] != '.' && raw[j] != 'e' && raw[j] != 'E' {
		n := intEnd - intStart
		if n > 0 && n <= 15 && !(raw[i] == '-' && raw[intStart] == '0') {
			return j, true
		}
		return numberSlow(raw, i, j)
	}
	if raw[j] == '.' {
		j++
		fracStart := j
		for j < len(raw) && raw[j] >= '0' && raw[j] <= '9' {
			j++
		}
		if j < len(raw) && (raw[j] == 'e' || raw[j] == 'E') {
			return numberSlow(raw, i, skipExponent(raw, j))
		}
		frac := raw[fracStart:j]
		if len(frac) == 0 || frac[len(frac)-1] == '0' {
			return numberSlow(raw, i, j)
		}
		sig := len(frac) + intEnd - intStart
		if intEnd-intStart == 1 && raw[intStart] == '0' {
			zeros := 0
			for zeros < len(frac) && frac[zeros] == '0' {
				zeros++
			}
			if zeros > 5 { // below 1e-6: an exponent
				return numberSlow(raw, i, j)
			}
			sig = len(frac) - zeros
		}
		if sig <= 15 {
			return j, true
		}
		return numberSlow(raw, i, j)
	}
	return numberSlow(raw, i, skipExponent(raw, j))
}

func skipExponent(raw []byte, j int) int {
	j++ // e or E
	if j < len(raw) && (raw[j] == '+' || raw[j] == '-') {
		j++
	}
	for j < len(raw) && raw[j] >= '0' && raw[j] <= '9' {
		j++
	}
	return j
}

// numberSlow compares raw[i:j] with the number's JavaScript form.
func numberSlow(raw []byte, i, j int) (int, bool) {
	num := raw[i:j]
	f, ok := parseNumber(num)
	if !ok {
		return 0, false
	}
	var buf [32]byte
	return j, string(AppendNumber(buf[:0], f)) == string(num)
}

// parseNumber reads a JSON number as JSON.parse does: out of range is an
// infinity or zero, not an error.
func parseNumber(num []byte) (float64, bool) {
	if len(num) == 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(unsafe.String(&num[0], len(num)), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return f, true
}
