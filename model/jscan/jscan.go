// Package jscan validates JSON and finds the members of objects without
// decoding the values it skips. Session lines can hold tool results of tens of
// megabytes; reading the few small fields a listing or a tree needs must not
// cost a decode of the rest.
//
// Validation follows JSON.parse: the grammar of RFC 8259 with the whitespace
// space, tab, CR and LF. Bytes that are not valid UTF-8 are accepted, as
// Node's UTF-8 decoder replaces them before JSON.parse sees the text.
package jscan

import (
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// SyntaxError reports where a value stopped being JSON.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

func errAt(i int, msg string) error { return &SyntaxError{Offset: i, Msg: msg} }

// ErrNotObject is returned by Members for a valid value that is not an object.
var ErrNotObject = errors.New("not a JSON object")

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the index of the first non-whitespace byte at or after i.
func SkipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// Valid reports whether data is exactly one JSON value, with optional whitespace around it.
func Valid(data []byte) bool {
	end, err := Skip(data, 0)
	return err == nil && SkipSpace(data, end) == len(data)
}

// Skip validates the value that starts at or after i and returns the index just past it.
func Skip(data []byte, i int) (int, error) {
	i = SkipSpace(data, i)
	if i >= len(data) {
		return i, errAt(i, "unexpected end of input")
	}
	switch c := data[i]; {
	case c == '"':
		return skipString(data, i)
	case c == '{' || c == '[':
		return skipNested(data, i)
	case c == 't':
		return skipLiteral(data, i, "true")
	case c == 'f':
		return skipLiteral(data, i, "false")
	case c == 'n':
		return skipLiteral(data, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return skipNumber(data, i)
	default:
		return i, errAt(i, fmt.Sprintf("invalid character %q", c))
	}
}

func skipLiteral(data []byte, i int, lit string) (int, error) {
	if len(data)-i < len(lit) || string(data[i:i+len(lit)]) != lit {
		return i, errAt(i, "invalid literal")
	}
	return i + len(lit), nil
}

func skipNumber(data []byte, i int) (int, error) {
	start := i
	if data[i] == '-' {
		i++
	}
	if i >= len(data) {
		return i, errAt(start, "invalid number")
	}
	switch {
	case data[i] == '0':
		i++
	case data[i] >= '1' && data[i] <= '9':
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		return i, errAt(start, "invalid number")
	}
	if i < len(data) && data[i] == '.' {
		i++
		d := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == d {
			return i, errAt(start, "invalid number")
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		d := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == d {
			return i, errAt(start, "invalid number")
		}
	}
	return i, nil
}

// skipString validates the string literal at data[i] == '"'.
func skipString(data []byte, i int) (int, error) {
	start := i
	i++
	for {
		// The hot loop: most bytes are plain text.
		for i < len(data) {
			c := data[i]
			if c == '"' || c == '\\' || c < 0x20 {
				break
			}
			i++
		}
		if i >= len(data) {
			return i, errAt(start, "unterminated string")
		}
		switch c := data[i]; {
		case c == '"':
			return i + 1, nil
		case c < 0x20:
			return i, errAt(i, "control character in string")
		default: // backslash
			if i+1 >= len(data) {
				return i, errAt(start, "unterminated string")
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(data) || !isHex4(data[i+2:i+6]) {
					return i, errAt(i, "invalid \\u escape")
				}
				i += 6
			default:
				return i, errAt(i, "invalid escape")
			}
		}
	}
}

func isHex4(b []byte) bool {
	for _, c := range b[:4] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// skipNested validates an object or array without recursion, so that deep
// nesting cannot exhaust the stack.
func skipNested(data []byte, i int) (int, error) {
	var stack []byte // the closing bracket of each open container
	open := func(c byte) {
		if c == '{' {
			stack = append(stack, '}')
		} else {
			stack = append(stack, ']')
		}
	}
	for {
		// At a value.
		i = SkipSpace(data, i)
		if i >= len(data) {
			return i, errAt(i, "unexpected end of input")
		}
		if c := data[i]; c == '{' || c == '[' {
			open(c)
			i = SkipSpace(data, i+1)
			if i < len(data) && data[i] == stack[len(stack)-1] {
				stack = stack[:len(stack)-1]
				i++
			} else if c == '{' {
				var ok bool
				if i, ok = skipKey(data, i); !ok {
					return -i, errAt(-i, "expected object key")
				}
				continue
			} else {
				continue
			}
		} else {
			end, err := Skip(data, i)
			if err != nil {
				return end, err
			}
			i = end
		}
		// After a value: close containers or move to the next member.
		for {
			if len(stack) == 0 {
				return i, nil
			}
			i = SkipSpace(data, i)
			if i >= len(data) {
				return i, errAt(i, "unexpected end of input")
			}
			top := stack[len(stack)-1]
			if data[i] == top {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if data[i] != ',' {
				return i, errAt(i, fmt.Sprintf("unexpected %q", data[i]))
			}
			i++
			if top == '}' {
				var ok bool
				if i, ok = skipKey(data, i); !ok {
					return -i, errAt(-i, "expected object key")
				}
			}
			break
		}
	}
}

// skipKey validates `"key" :` at or after i and returns the index after the
// colon; on failure it returns the negated offset of the problem and false.
func skipKey(data []byte, i int) (int, bool) {
	i = SkipSpace(data, i)
	if i >= len(data) || data[i] != '"' {
		return -i, false
	}
	end, err := skipString(data, i)
	if err != nil {
		return -end, false
	}
	i = SkipSpace(data, end)
	if i >= len(data) || data[i] != ':' {
		return -i, false
	}
	return i + 1, true
}

// Members validates the object obj (whitespace around it allowed, nothing
// else) and calls fn with each member's raw key (quotes included) and raw
// value. fn returning false stops the walk early, without validating the rest.
func Members(obj []byte, fn func(key, val []byte) bool) error {
	i := SkipSpace(obj, 0)
	if i >= len(obj) {
		return errAt(i, "empty")
	}
	if obj[i] != '{' {
		end, err := Skip(obj, i)
		if err != nil {
			return err
		}
		if SkipSpace(obj, end) != len(obj) {
			return errAt(end, "data after value")
		}
		return ErrNotObject
	}
	i = SkipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		if SkipSpace(obj, i+1) != len(obj) {
			return errAt(i+1, "data after value")
		}
		return nil
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return errAt(i, "expected object key")
		}
		kend, err := skipString(obj, i)
		if err != nil {
			return err
		}
		key := obj[i:kend]
		i = SkipSpace(obj, kend)
		if i >= len(obj) || obj[i] != ':' {
			return errAt(i, "expected ':'")
		}
		vstart := SkipSpace(obj, i+1)
		vend, err := Skip(obj, vstart)
		if err != nil {
			return err
		}
		if !fn(key, obj[vstart:vend]) {
			return nil
		}
		i = SkipSpace(obj, vend)
		if i >= len(obj) {
			return errAt(i, "unexpected end of input")
		}
		switch obj[i] {
		case ',':
			i = SkipSpace(obj, i+1)
		case '}':
			if SkipSpace(obj, i+1) != len(obj) {
				return errAt(i+1, "data after value")
			}
			return nil
		default:
			return errAt(i, "expected ',' or '}'")
		}
	}
}

// Elements calls fn with each raw element of the array arr, which must be valid.
func Elements(arr []byte, fn func(val []byte) bool) error {
	i := SkipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return errors.New("not a JSON array")
	}
	i = SkipSpace(arr, i+1)
	if i < len(arr) && arr[i] == ']' {
		return nil
	}
	for {
		end, err := Skip(arr, i)
		if err != nil {
			return err
		}
		if !fn(arr[SkipSpace(arr, i):end]) {
			return nil
		}
		i = SkipSpace(arr, end)
		if i >= len(arr) {
			return errAt(i, "unexpected end of input")
		}
		switch arr[i] {
		case ',':
			i++
		case ']':
			return nil
		default:
			return errAt(i, "expected ',' or ']'")
		}
	}
}

// KeyIs reports whether the raw key (quotes included) names name.
func KeyIs(key []byte, name string) bool {
	if len(key) == len(name)+2 && string(key[1:len(key)-1]) == name {
		return true
	}
	if len(key) < len(name)+2 || !hasBackslash(key) {
		return false
	}
	s, ok := Unquote(key)
	return ok && s == name
}

func hasBackslash(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}

// IsString reports whether raw is a string literal.
func IsString(raw []byte) bool { return len(raw) > 0 && raw[0] == '"' }

// IsNull reports whether raw is the literal null.
func IsNull(raw []byte) bool { return string(raw) == "null" }

// Unquote decodes a valid string literal. Invalid UTF-8 and lone surrogates
// become U+FFFD, as in Go's encoding/json.
func Unquote(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	if !hasBackslash(body) {
		if utf8.Valid(body) {
			return string(body), true
		}
		return toValid(body), true
	}
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			if c < utf8.RuneSelf {
				out = append(out, c)
				i++
				continue
			}
			r, size := utf8.DecodeRune(body[i:])
			out = utf8.AppendRune(out, r)
			i += size
			continue
		}
		if i+1 >= len(body) {
			return "", false
		}
		switch body[i+1] {
		case '"', '\\', '/':
			out = append(out, body[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if i+6 > len(body) {
				return "", false
			}
			r := hex4(body[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
					if r2 := hex4(body[i+2 : i+6]); utf16.DecodeRune(r, r2) != utf8.RuneError {
						out = utf8.AppendRune(out, utf16.DecodeRune(r, r2))
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return "", false
		}
		i += 2
	}
	return string(out), true
}

func toValid(b []byte) string {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		out = utf8.AppendRune(out, r)
		i += size
	}
	return string(out)
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			r |= rune(c-'A') + 10
		}
	}
	return r
}
