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
	"bytes"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"skein/internal/utf8js"
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
	for i < len(data) {
		if c := data[i]; c > ' ' || !isSpace(c) {
			return i
		}
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
	end, _, err := scanValue(data, i)
	return end, err
}

// scanValue is Skip, and also reports whether a string in the value has an
// escape JSON.stringify would write differently (\u or \/): one that
// copying the value as it is would change.
func scanValue(data []byte, i int) (int, bool, error) {
	i = SkipSpace(data, i)
	if i >= len(data) {
		return i, false, errAt(i, "unexpected end of input")
	}
	var end int
	var err error
	switch c := data[i]; {
	case c == '"':
		if j := shortString(data, i); j > 0 {
			return j, false, nil
		}
		return scanString(data, i)
	case c == '{' || c == '[':
		return scanNested(data, i)
	case c == 't':
		end, err = skipLiteral(data, i, "true")
	case c == 'f':
		end, err = skipLiteral(data, i, "false")
	case c == 'n':
		end, err = skipLiteral(data, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		end, err = skipNumber(data, i)
	default:
		return i, false, errAt(i, fmt.Sprintf("invalid character %q", c))
	}
	return end, false, err
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
		i = digitsEnd(data, i+1)
	default:
		return i, errAt(start, "invalid number")
	}
	if i < len(data) && data[i] == '.' {
		i++
		d := i
		if i = digitsEnd(data, i); i == d {
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
	end, _, err := scanString(data, i)
	return end, err
}

// scanString is skipString, and also reports whether the string has a \u
// or \/ escape.
func scanString(data []byte, i int) (int, bool, error) {
	start := i
	other := false
	i++
	for {
		if i = indexSpecial(data, i); i >= len(data) {
			return i, other, errAt(start, "unterminated string")
		}
		switch c := data[i]; {
		case c == '"':
			return i + 1, other, nil
		case c < 0x20:
			return i, other, errAt(i, "control character in string")
		default: // backslash
			if i+1 >= len(data) {
				return i, other, errAt(start, "unterminated string")
			}
			switch data[i+1] {
			case '"', '\\', 'b', 'f', 'n', 'r', 't':
				i += 2
			case '/':
				other = true
				i += 2
			case 'u':
				if i+6 > len(data) || !isHex4(data[i+2:i+6]) {
					return i, other, errAt(i, "invalid \\u escape")
				}
				other = true
				i += 6
			default:
				return i, other, errAt(i, "invalid escape")
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

// scanNested validates an object or array, and reports whether a string in
// it has a \u or \/ escape: one flat loop with its own stack, so that deep
// nesting cannot exhaust the goroutine stack and each token costs no call
// but for strings.
func scanNested(data []byte, i int) (int, bool, error) {
	other, esc := false, false
	var arr [64]byte
	stack := arr[:0] // the closing bracket of each open container
	n := len(data)
	var c byte
	var err error
value:
	for i < n && data[i] <= ' ' && isSpace(data[i]) {
		i++
	}
	if i >= n {
		return i, other, errAt(i, "unexpected end of input")
	}
	c = data[i]
	switch {
	case c == '"':
		if j := shortString(data, i); j > 0 {
			i = j
			goto after
		}
		if i, esc, err = scanString(data, i); err != nil {
			return i, other, err
		}
		other = other || esc
	case c == '{' || c == '[':
		if c == '{' {
			stack = append(stack, '}')
		} else {
			stack = append(stack, ']')
		}
		i++
		for i < n && data[i] <= ' ' && isSpace(data[i]) {
			i++
		}
		if i < n && data[i] == stack[len(stack)-1] {
			stack = stack[:len(stack)-1]
			i++
			goto after
		}
		if c == '{' {
			goto key
		}
		goto value
	case c == '-' || c >= '0' && c <= '9':
		if i, err = skipNumber(data, i); err != nil {
			return i, other, err
		}
	case c == 't':
		if i+4 > n || string(data[i:i+4]) != "true" {
			return i, other, errAt(i, "invalid literal")
		}
		i += 4
	case c == 'f':
		if i+5 > n || string(data[i:i+5]) != "false" {
			return i, other, errAt(i, "invalid literal")
		}
		i += 5
	case c == 'n':
		if i+4 > n || string(data[i:i+4]) != "null" {
			return i, other, errAt(i, "invalid literal")
		}
		i += 4
	default:
		return i, other, errAt(i, fmt.Sprintf("invalid character %q", c))
	}
after:
	if len(stack) == 0 {
		return i, other, nil
	}
	for i < n && data[i] <= ' ' && isSpace(data[i]) {
		i++
	}
	if i >= n {
		return i, other, errAt(i, "unexpected end of input")
	}
	switch c = data[i]; {
	case c == ',':
		i++
		if stack[len(stack)-1] == '}' {
			goto key
		}
		goto value
	case c == stack[len(stack)-1]:
		stack = stack[:len(stack)-1]
		i++
		goto after
	}
	return i, other, errAt(i, fmt.Sprintf("unexpected %q", c))
key:
	for i < n && data[i] <= ' ' && isSpace(data[i]) {
		i++
	}
	if i >= n || data[i] != '"' {
		return i, other, errAt(i, "expected object key")
	}
	if j := shortString(data, i); j > 0 {
		i = j
		goto colon
	}
	if i, esc, err = scanString(data, i); err != nil {
		return i, other, err
	}
	other = other || esc
colon:
	for i < n && data[i] <= ' ' && isSpace(data[i]) {
		i++
	}
	if i >= n || data[i] != ':' {
		return i, other, errAt(i, "expected ':'")
	}
	i++
	goto value
}

// Members validates the object obj (whitespace around it allowed, nothing
// else) and calls fn with each member's raw key (quotes included) and raw
// value. fn returning false stops the walk early, without validating the rest.
func Members(obj []byte, fn func(key, val []byte) bool) error {
	it := Object(obj)
	for key, val, ok := it.Next(); ok; key, val, ok = it.Next() {
		if !fn(key, val) {
			return nil
		}
	}
	return it.Err()
}

// ObjectIter walks an object's members as Members does, validating as it
// goes, without a callback: for the hot loops where calling a closure per
// member costs more than the walk. A member is returned only once what
// follows it is known to be well formed.
//
//	it := jscan.Object(line)
//	for key, val, ok := it.Next(); ok; key, val, ok = it.Next() { ... }
//	err := it.Err()
type ObjectIter struct {
	obj    []byte
	i      int
	done   bool
	err    error
	nested bool // the object is inside obj, which goes on after it
	end    int  // for a nested object, just past its closing brace
	plain  bool // the last key returned has no escapes
	// other says a string so far, keys included, has a \u or \/ escape;
	// valueOther says so of the last value returned.
	other, valueOther bool
}

// ValueHasOtherEscapes reports whether a string in the value Next last
// returned, keys included, has an escape other than \b \f \n \r \t \" and
// \\ (those JSON.stringify writes as they are): the walk that validated it
// saw every escape, so that no second pass need look for them.
func (it *ObjectIter) ValueHasOtherEscapes() bool { return it.valueOther }

// Object starts a walk over obj's members. A valid value that is not an
// object has no members and the error ErrNotObject.
func Object(obj []byte) ObjectIter {
	it := ObjectIter{obj: obj, done: true}
	i := SkipSpace(obj, 0)
	switch {
	case i >= len(obj):
		it.err = errAt(i, "empty")
	case obj[i] != '{':
		end, err := Skip(obj, i)
		switch {
		case err != nil:
			it.err = err
		case SkipSpace(obj, end) != len(obj):
			it.err = errAt(end, "data after value")
		default:
			it.err = ErrNotObject
		}
	default:
		it.open(i)
	}
	return it
}

// open starts the walk at the opening brace obj[i].
func (it *ObjectIter) open(i int) {
	obj := it.obj
	i = SkipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		it.close(i)
		return
	}
	it.i, it.done = i, false
}

// close ends the walk at the closing brace obj[i].
func (it *ObjectIter) close(i int) {
	it.done = true
	if it.nested {
		it.end = i + 1
	} else if SkipSpace(it.obj, i+1) != len(it.obj) {
		it.err = errAt(i+1, "data after value")
	}
}

// Err is the reason the walk stopped early, nil when the object is valid.
func (it *ObjectIter) Err() error { return it.err }

func (it *ObjectIter) fail(err error) (key, val []byte, ok bool) {
	it.err, it.done = err, true
	return nil, nil, false
}

// Next returns the next member's raw key and value; ok is false at the end
// of the object or at the first error.
func (it *ObjectIter) Next() (key, val []byte, ok bool) {
	return it.next("", "", nil, nil)
}

// NextWith is Next, and when the value is an object, also the raw value of
// that object's last member named name (nil when it has none): one pass
// where Next then a search of the value would read it twice.
func (it *ObjectIter) NextWith(name string) (key, val, member []byte, ok bool) {
	key, val, ok = it.next(name, "", &member, nil)
	return key, val, member, ok
}

// NextWith2 is NextWith for two member names at once.
func (it *ObjectIter) NextWith2(a, b string) (key, val, ma, mb []byte, ok bool) {
	key, val, ok = it.next(a, b, &ma, &mb)
	return key, val, ma, mb, ok
}

func (it *ObjectIter) next(name, name2 string, member, member2 *[]byte) (key, val []byte, ok bool) {
	if it.done {
		return nil, nil, false
	}
	obj, kstart := it.obj, it.i
	if kstart >= len(obj) || obj[kstart] != '"' {
		return it.fail(errAt(kstart, "expected object key"))
	}
	// Most keys are short names: shortString finds their end, and that they
	// have no escapes, in two words.
	kend := shortString(obj, kstart)
	it.plain = kend > 0
	if kend == 0 {
		var err error
		var esc bool
		if kend, esc, err = scanString(obj, kstart); err != nil {
			return it.fail(err)
		}
		it.plain = !hasBackslash(obj[kstart:kend])
		it.other = it.other || esc
	}
	i := SkipSpace(obj, kend)
	if i >= len(obj) || obj[i] != ':' {
		return it.fail(errAt(i, "expected ':'"))
	}
	vstart := SkipSpace(obj, i+1)
	var vend int
	if member != nil && vstart < len(obj) && obj[vstart] == '{' {
		sub := ObjectIter{obj: obj, nested: true}
		sub.open(vstart)
		for k, v, ok := sub.Next(); ok; k, v, ok = sub.Next() {
			// Most keys differ from both names in length, and have no escapes.
			if len(k) == len(name)+2 && string(k[1:len(k)-1]) == name || !sub.plain && KeyIs(k, name) {
				*member = v
			} else if member2 != nil && (len(k) == len(name2)+2 && string(k[1:len(k)-1]) == name2 || !sub.plain && KeyIs(k, name2)) {
				*member2 = v
			}
		}
		if sub.err != nil {
			return it.fail(sub.err)
		}
		vend, it.valueOther = sub.end, sub.other
	} else {
		var err error
		if vend, it.valueOther, err = scanValue(obj, vstart); err != nil {
			return it.fail(err)
		}
	}
	it.other = it.other || it.valueOther
	i = SkipSpace(obj, vend)
	if i >= len(obj) {
		return it.fail(errAt(i, "unexpected end of input"))
	}
	switch obj[i] {
	case ',':
		it.i = SkipSpace(obj, i+1)
	case '}':
		it.close(i)
		if it.err != nil {
			return nil, nil, false
		}
	default:
		return it.fail(errAt(i, "expected ',' or '}'"))
	}
	return obj[kstart:kend], obj[vstart:vend], true
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
	if len(key) <= len(name)+2 || !hasBackslash(key) {
		return false
	}
	s, ok := Unquote(key)
	return ok && s == name
}

// Name is Key for the key Next last returned, knowing whether it has escapes.
func (it *ObjectIter) Name(key []byte) string {
	if it.plain {
		if len(key) <= 2 {
			return ""
		}
		return unsafe.String(&key[1], len(key)-2)
	}
	return Key(key)
}

// Key returns the name a raw key stands for, sharing key's memory when it has
// no escapes: for a switch over the names a caller wants.
func Key(key []byte) string {
	if len(key) < 2 {
		return ""
	}
	body := key[1 : len(key)-1]
	if !hasBackslash(body) {
		if len(body) == 0 {
			return ""
		}
		return unsafe.String(&body[0], len(body))
	}
	s, _ := Unquote(key)
	return s
}

// LastNumberMember returns the raw number of obj's last member when its raw
// key followed by a colon is keyColon (e.g. `"timestamp":`): how pi ends a
// message (`..."timestamp":1772442025829}`), read without walking the object.
func LastNumberMember(obj []byte, keyColon string) ([]byte, bool) {
	i := len(obj) - 1
	for i >= 0 && isSpace(obj[i]) {
		i--
	}
	if i < 0 || obj[i] != '}' {
		return nil, false
	}
	end := i
	for i > 0 && (obj[i-1] >= '0' && obj[i-1] <= '9' || obj[i-1] == '.' || obj[i-1] == '-' || obj[i-1] == '+' || obj[i-1] == 'e' || obj[i-1] == 'E') {
		i--
	}
	num := obj[i:end]
	if len(num) == 0 {
		return nil, false
	}
	suffix := keyColon
	if i < len(suffix) || string(obj[i-len(suffix):i]) != suffix {
		return nil, false
	}
	// The key must start a member: a quote that is not itself escaped content.
	if j := i - len(suffix) - 1; j < 0 || (obj[j] != ',' && obj[j] != '{') {
		return nil, false
	}
	return num, true
}

func hasBackslash(b []byte) bool { return bytes.IndexByte(b, '\\') >= 0 }

// IsString reports whether raw is a string literal.
func IsString(raw []byte) bool { return len(raw) > 0 && raw[0] == '"' }

// Unquote decodes a valid string literal. Bytes that are not UTF-8 become
// U+FFFD as Node's decoder replaces them before JSON.parse sees them (one
// for each maximal subpart of an ill-formed sequence, see utf8js), and lone
// surrogates become U+FFFD too, as in Go's encoding/json (a Go string cannot
// hold them).
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
		if j := plainEnd(body, i); j > i {
			out = append(out, body[i:j]...) // a run that is its own value
			if i = j; i >= len(body) {
				break
			}
		}
		if c := body[i]; c != '\\' {
			if r, size := utf8.DecodeRune(body[i:]); r != utf8.RuneError || size > 1 {
				out = append(out, body[i:i+size]...) // well-formed: its bytes
				i += size
				continue
			}
			r, size := utf8js.DecodeRune(body[i:])
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

func toValid(b []byte) string { return string(utf8js.AppendValid(make([]byte, 0, len(b)+8), b)) }

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

// Member returns the raw value of the last member named key of the valid
// object obj (JSON.parse keeps the last of duplicate keys), or nil.
func Member(obj []byte, key string) []byte {
	var out []byte
	Fields(obj, func(k, v []byte) bool {
		if KeyIs(k, key) {
			out = v
		}
		return true
	})
	return out
}

// Fields calls fn with each member of obj, which must already be known to be
// valid JSON (a value Members or Skip accepted). It skips values without
// validating them, so it is several times faster; on invalid input it stops
// early but never panics or loops.
func Fields(obj []byte, fn func(key, val []byte) bool) {
	it := Walk(obj)
	for key, ok := it.Next(); ok; key, ok = it.Next() {
		val := it.Value()
		if val == nil || !fn(key, val) {
			return
		}
	}
}

// FieldIter walks an already-valid object's members as Fields does, without
// a callback, and finds a value's end only when Value is called or the walk
// moves past it: a caller may stop at a key without measuring its value.
type FieldIter struct {
	obj     []byte
	i       int // where the next member starts; -1 at the end
	vstart  int
	vend    int // -2 until measured, -1 when invalid
	pending bool
}

// Walk starts a walk over the members of the valid object obj.
func Walk(obj []byte) FieldIter {
	i := SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return FieldIter{i: -1}
	}
	return FieldIter{obj: obj, i: i + 1}
}

// Next returns the next member's raw key; ok is false at the end.
func (it *FieldIter) Next() (key []byte, ok bool) {
	if it.i < 0 {
		return nil, false
	}
	obj, i := it.obj, it.i
	if it.pending {
		if it.Value() == nil {
			it.i = -1
			return nil, false
		}
		i = SkipSpace(obj, it.vend)
		if i >= len(obj) || obj[i] != ',' {
			it.i = -1
			return nil, false
		}
		i++
	}
	i = SkipSpace(obj, i)
	if i >= len(obj) || obj[i] != '"' {
		it.i = -1
		return nil, false
	}
	kend := skipValidString(obj, i)
	if kend < 0 {
		it.i = -1
		return nil, false
	}
	key = obj[i:kend]
	i = SkipSpace(obj, kend)
	if i >= len(obj) || obj[i] != ':' {
		it.i = -1
		return nil, false
	}
	it.vstart = SkipSpace(obj, i+1)
	it.vend, it.pending, it.i = -2, true, it.vstart
	return key, true
}

// Value returns the current member's raw value, nil when it is invalid.
func (it *FieldIter) Value() []byte {
	if !it.pending {
		return nil
	}
	if it.vend == -2 {
		it.vend = SkipValid(it.obj, it.vstart)
	}
	if it.vend < 0 {
		return nil
	}
	return it.obj[it.vstart:it.vend]
}

// Items calls fn with each element of arr, which must already be valid.
func Items(arr []byte, fn func(val []byte) bool) {
	i := SkipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return
	}
	i = SkipSpace(arr, i+1)
	if i < len(arr) && arr[i] == ']' {
		return
	}
	for i < len(arr) {
		end := SkipValid(arr, i)
		if end < 0 || !fn(arr[i:end]) {
			return
		}
		i = SkipSpace(arr, end)
		if i >= len(arr) || arr[i] != ',' {
			return
		}
		i = SkipSpace(arr, i+1)
	}
}

// SkipValid returns the end of the already-valid value at i, or -1.
func SkipValid(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		return skipValidString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = skipValidString(data, i)
				if i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	for i < len(data) {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// skipValidString returns the end of the valid string literal at i, or -1.
func skipValidString(data []byte, i int) int {
	i++
	for {
		j := bytes.IndexByte(data[i:], '"')
		if j < 0 {
			return -1
		}
		i += j
		// The quote is escaped when an odd number of backslashes precede it.
		n := 0
		for k := i - 1; k >= 0 && data[k] == '\\'; k-- {
			n++
		}
		i++
		if n%2 == 0 {
			return i
		}
	}
}

// AppendMember appends the member k:v (raw JSON, as Fields gives them) to
// an object being written into out: a comma first unless out holds only
// its opening brace.
func AppendMember(out, k, v []byte) []byte {
	if len(out) > 1 {
		out = append(out, ',')
	}
	out = append(out, k...)
	out = append(out, ':')
	return append(out, v...)
}
