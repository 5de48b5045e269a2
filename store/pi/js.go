package pi

import (
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/internal/utf8js"
)

// TrimJS is JavaScript's String.prototype.trim (utf8js.Trim).
func TrimJS(s string) string { return utf8js.Trim(s) }

func isJSSpace(r rune) bool { return utf8js.IsSpace(r) }

// jsNumberValue returns the value of a raw JSON number.
func jsNumberValue(raw []byte) (float64, bool) {
	if len(raw) == 0 || !(raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// rawStringLen is the JavaScript length of the string a raw JSON string
// literal decodes to, computed without decoding it; ok is false when raw is
// not a string.
func rawStringLen(raw []byte) (n int, ok bool) {
	if !jscan.IsString(raw) {
		return 0, false
	}
	body := raw[1 : len(raw)-1]
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			n++
			if i+1 < len(body) && body[i+1] == 'u' {
				i += 6
			} else {
				i += 2
			}
		case c < utf8.RuneSelf:
			n++
			i++
		default:
			r, size := utf8js.DecodeRune(body[i:]) // an ill-formed sequence is one U+FFFD to pi
			n += utf8js.RuneUnits(r)
			i += size
		}
	}
	return n, true
}

// StringifyLen is JSON.stringify(JSON.parse(raw)).length for a valid raw
// value, computed on the bytes in one pass: each container is a frame of an
// explicit stack, not a call, and no byte is read twice, so that a tool
// call's arguments nested 100,000 deep cost what their bytes do (a
// recursion over jscan.Elements skipped each nested value once per level
// above it). 0 for what is not valid JSON.
func StringifyLen(raw []byte) int {
	// JSON.parse keeps the last of duplicate keys, where the first stood:
	// an object's length is that of its distinct keys with their last values.
	type member struct {
		key string
		len int // key, colon and value, stringified
	}
	// A frame is an open container, kept small: 100,000 open arrays are
	// 100,000 frames.
	type frame struct {
		n     int // the members or elements so far, without commas
		count int32
		obj   bool
	}
	// An object's frame has an entry of its own here too.
	type object struct {
		key    string // the pending member's name
		keyLen int    // its key stringified, and the colon
		first  int    // where the object's members start in members
		index  map[string]int
	}
	var stack []frame
	var objects []object
	var members []member
	i := 0
	// key reads the member name at i, then its colon.
	key := func(o *object) bool {
		i = jscan.SkipSpace(raw, i)
		end, err := jscan.Skip(raw, i)
		if err != nil || raw[i] != '"' {
			return false
		}
		o.key, o.keyLen = jscan.Key(raw[i:end]), stringifiedStringLen(raw[i:end])+1
		i = jscan.SkipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return false
		}
		i++
		return true
	}
	// add counts a finished value of length l in the open container f.
	add := func(f *frame, l int) {
		if !f.obj {
			f.n += l
			f.count++
			return
		}
		o := &objects[len(objects)-1]
		l += o.keyLen
		j := -1
		if o.index != nil {
			if k, ok := o.index[o.key]; ok {
				j = k
			}
		} else {
			for k := o.first; k < len(members); k++ {
				if members[k].key == o.key {
					j = k
					break
				}
			}
		}
		if j >= 0 {
			f.n += l - members[j].len
			members[j].len = l
			return
		}
		members = append(members, member{o.key, l})
		f.n += l
		f.count++
		switch {
		case o.index != nil:
			o.index[o.key] = len(members) - 1
		case f.count == 16: // past a few members, a map keeps lookups constant
			o.index = make(map[string]int, 32)
			for k := o.first; k < len(members); k++ {
				o.index[members[k].key] = k
			}
		}
	}
	for {
		i = jscan.SkipSpace(raw, i)
		if i >= len(raw) {
			return 0
		}
		var l int
		switch c := raw[i]; c {
		case '[', '{':
			i = jscan.SkipSpace(raw, i+1)
			if i < len(raw) && raw[i] == c+2 { // ']' and '}' follow '[' and '{' by two
				i++
				l = 2
				break
			}
			stack = append(stack, frame{obj: c == '{'})
			if c == '{' {
				objects = append(objects, object{first: len(members)})
				if !key(&objects[len(objects)-1]) {
					return 0
				}
			}
			continue
		default:
			end, err := jscan.Skip(raw, i)
			if err != nil {
				return 0
			}
			switch c {
			case '"':
				l = stringifiedStringLen(raw[i:end])
			case 't', 'n':
				l = 4
			case 'f':
				l = 5
			default:
				f, _ := jsNumberValue(raw[i:end])
				l = len(jsjson.FormatNumber(f))
			}
			i = end
		}
		// A value of length l is done: count it in the containers it closes.
		for {
			if len(stack) == 0 {
				return l
			}
			f := &stack[len(stack)-1]
			add(f, l)
			i = jscan.SkipSpace(raw, i)
			if i >= len(raw) {
				return 0
			}
			if raw[i] == ',' {
				i++
				if f.obj && !key(&objects[len(objects)-1]) {
					return 0
				}
				break
			}
			if raw[i] != ']' && raw[i] != '}' {
				return 0
			}
			i++
			l = 2 + f.n + max(int(f.count)-1, 0)
			if f.obj {
				members = members[:objects[len(objects)-1].first]
				objects = objects[:len(objects)-1]
			}
			stack = stack[:len(stack)-1]
		}
	}
}

// stringifiedStringLen is the length JSON.stringify gives the string a raw
// literal decodes to: quotes, and escapes for quote, backslash, control
// characters and lone surrogates.
func stringifiedStringLen(raw []byte) int {
	body := raw[1 : len(raw)-1]
	n := 2
	esc := func(u rune) int {
		switch {
		case u == '"' || u == '\\' || u == '\b' || u == '\f' || u == '\n' || u == '\r' || u == '\t':
			return 2
		case u < 0x20:
			return 6
		}
		return 1
	}
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			if body[i+1] != 'u' {
				u := rune(body[i+1])
				switch u {
				case 'b':
					u = '\b'
				case 'f':
					u = '\f'
				case 'n':
					u = '\n'
				case 'r':
					u = '\r'
				case 't':
					u = '\t'
				}
				n += esc(u)
				i += 2
				continue
			}
			u := hexRune(body[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(u) {
				if u < 0xDC00 && i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
					if lo := hexRune(body[i+2 : i+6]); lo >= 0xDC00 && lo <= 0xDFFF {
						n += 2
						i += 6
						continue
					}
				}
				n += 6 // a lone surrogate is written as \udxxx
				continue
			}
			n += esc(u)
		case c < utf8.RuneSelf:
			n += esc(rune(c))
			i++
		default:
			r, size := utf8js.DecodeRune(body[i:]) // an ill-formed sequence is one U+FFFD to pi
			n += utf8js.RuneUnits(r)
			i += size
		}
	}
	return n
}

func hexRune(b []byte) rune {
	v, _ := strconv.ParseUint(string(b), 16, 32)
	return rune(v)
}

// compareUTF16 orders strings as JavaScript's default sort does: by UTF-16
// code units.
func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := utf16Units(ra), utf16Units(rb)
			for i := 0; i < len(ua) && i < len(ub); i++ {
				if ua[i] != ub[i] {
					return int(ua[i]) - int(ub[i])
				}
			}
			return len(ua) - len(ub)
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

func utf16Units(r rune) []uint16 {
	if r >= 0x10000 {
		hi, lo := utf16.EncodeRune(r)
		return []uint16{uint16(hi), uint16(lo)}
	}
	return []uint16{uint16(r)}
}
