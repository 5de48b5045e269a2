package jsjson

import (
	"slices"
	"unicode/utf16"
	"unicode/utf8"

	"skein/internal/utf8js"
)

// AppendValue appends raw, one JSON value read from a session file, as pi
// would write it after reading it: JSON.stringify(JSON.parse(text)) where
// text is the file read with readFileSync(path, "utf8"). Raw that is
// already in that form (what pi writes always is) is copied after one
// Canonical pass; anything else is rewritten: invalid UTF-8 replaced, space
// dropped, escapes and numbers as JavaScript writes them, a repeated key's
// last value in its first place, array-index keys first. raw must be valid
// JSON apart from its UTF-8 (a value the rewrite finds is not is written as
// null).
func AppendValue(dst, raw []byte) []byte {
	if Canonical(raw) {
		return append(dst, raw...)
	}
	return appendRewritten(dst, raw)
}

// member is where one member of an object being rewritten lies in the
// output: its key from key, its value from val, up to end.
type member struct{ key, val, end int }

type container struct {
	object  bool
	start   int // where its opening bracket is in the output
	members int // where its members start in rewriter.members
}

type rewriter struct {
	in, out []byte
	stack   []container
	members []member
}

func appendRewritten(dst, raw []byte) []byte {
	if !utf8.Valid(raw) {
		raw = utf8js.AppendValid(nil, raw)
	}
	w := rewriter{in: raw, out: dst}
	if !w.value() {
		return append(dst, "null"...)
	}
	return w.out
}

func (w *rewriter) skipSpace(i int) int {
	for i < len(w.in) && (w.in[i] == ' ' || w.in[i] == '\t' || w.in[i] == '\n' || w.in[i] == '\r') {
		i++
	}
	return i
}

// value rewrites w.in, which must be one value, into w.out: one flat loop
// with its own stack, so that deep nesting cannot exhaust the goroutine's.
func (w *rewriter) value() bool {
	in := w.in
	i := w.skipSpace(0)
	expectKey := false
	for {
		if i >= len(in) {
			return false
		}
		if expectKey {
			if in[i] != '"' {
				return false
			}
			w.members = append(w.members, member{key: len(w.out)})
			var ok bool
			if i, ok = w.str(i); !ok {
				return false
			}
			if i = w.skipSpace(i); i >= len(in) || in[i] != ':' {
				return false
			}
			w.out = append(w.out, ':')
			i = w.skipSpace(i + 1)
			w.members[len(w.members)-1].val = len(w.out)
			expectKey = false
			continue
		}
		switch c := in[i]; {
		case c == '{' || c == '[':
			w.out = append(w.out, c)
			if j := w.skipSpace(i + 1); j < len(in) && in[j] == c+2 { // } or ]
				w.out = append(w.out, c+2)
				i = j + 1
				break
			}
			w.stack = append(w.stack, container{object: c == '{', start: len(w.out) - 1, members: len(w.members)})
			i = w.skipSpace(i + 1)
			expectKey = c == '{'
			continue
		case c == '"':
			var ok bool
			if i, ok = w.str(i); !ok {
				return false
			}
		case c == 't' || c == 'f' || c == 'n':
			lit := "null"
			if c == 't' {
				lit = "true"
			} else if c == 'f' {
				lit = "false"
			}
			if !literal(in, i, lit) {
				return false
			}
			w.out = append(w.out, lit...)
			i += len(lit)
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(in) && (in[j] >= '0' && in[j] <= '9' || in[j] == '.' || in[j] == 'e' || in[j] == 'E' || in[j] == '+' || in[j] == '-') {
				j++
			}
			f, ok := parseNumber(in[i:j])
			if !ok {
				return false
			}
			w.out = AppendNumber(w.out, f)
			i = j
		default:
			return false
		}
		// After a value: a comma, or the end of one or more containers.
		for {
			i = w.skipSpace(i)
			if len(w.stack) == 0 {
				return i == len(in)
			}
			top := &w.stack[len(w.stack)-1]
			if top.object {
				w.members[len(w.members)-1].end = len(w.out)
			}
			if i >= len(in) {
				return false
			}
			c := in[i]
			i = w.skipSpace(i + 1)
			if c == ',' {
				w.out = append(w.out, ',')
				expectKey = top.object
				break
			}
			if c != "]}"[b2i(top.object)] {
				return false
			}
			w.out = append(w.out, c)
			if top.object {
				w.order(top)
			}
			w.stack = w.stack[:len(w.stack)-1]
		}
	}
}

// order puts the members of the object just written as JSON.parse leaves
// them: a key given twice keeps its first place and takes its last value;
// array-index keys come first, in numeric order.
func (w *rewriter) order(obj *container) {
	ms := w.members[obj.members:]
	defer func() { w.members = w.members[:obj.members] }()
	type slot struct {
		key, colon, val, end int   // the key is key:colon, its value val:end
		index                int64 // -1: not an array index
	}
	slots := make([]slot, 0, len(ms))
	seen := make(map[string]int, len(ms))
	changed := false
	for _, m := range ms {
		k := string(w.out[m.key:m.val])
		if at, dup := seen[k]; dup {
			slots[at].val, slots[at].end = m.val, m.end
			changed = true
			continue
		}
		seen[k] = len(slots)
		n, ok := arrayIndex(w.out[m.key+1 : m.val-2]) // the body of "key":
		if !ok {
			n = -1
		}
		slots = append(slots, slot{m.key, m.val, m.val, m.end, n})
	}
	sorted := slices.IsSortedFunc(slots, func(a, b slot) int { return cmpIndex(a.index, b.index) })
	if !changed && sorted {
		return
	}
	slices.SortStableFunc(slots, func(a, b slot) int { return cmpIndex(a.index, b.index) })
	body := append([]byte(nil), w.out[obj.start:]...)
	w.out = append(w.out[:obj.start], '{')
	for i, s := range slots {
		if i > 0 {
			w.out = append(w.out, ',')
		}
		w.out = append(w.out, body[s.key-obj.start:s.colon-obj.start]...)
		w.out = append(w.out, body[s.val-obj.start:s.end-obj.start]...)
	}
	w.out = append(w.out, '}')
}

// cmpIndex orders array-index keys (n >= 0) by number before all others,
// which keep their order.
func cmpIndex(a, b int64) int {
	switch {
	case a >= 0 && b >= 0:
		return int(a - b)
	case a >= 0:
		return -1
	case b >= 0:
		return 1
	}
	return 0
}

// str rewrites the string literal at w.in[i] and returns the index past it.
func (w *rewriter) str(i int) (int, bool) {
	in := w.in
	w.out = append(w.out, '"')
	p := i + 1
	start := p // in[start:p] is still to be copied
	for p < len(in) {
		c := in[p]
		if c != '"' && c != '\\' && c >= 0x20 {
			p++
			continue
		}
		w.out = append(w.out, in[start:p]...)
		if c == '"' {
			w.out = append(w.out, '"')
			return p + 1, true
		}
		if c < 0x20 || p+1 >= len(in) {
			return 0, false
		}
		switch e := in[p+1]; e {
		case '"', '\\':
			w.out = append(w.out, '\\', e)
			p += 2
		case '/':
			w.out = append(w.out, '/')
			p += 2
		case 'b', 'f', 'n', 'r', 't':
			w.out = append(w.out, '\\', e)
			p += 2
		case 'u':
			u, _, ok := hex4(in, p+2)
			if !ok {
				return 0, false
			}
			p += 6
			switch {
			case utf16.IsSurrogate(u):
				if lo, _, ok := hex4(in, p+2); ok && u < 0xDC00 && in[p] == '\\' && in[p+1] == 'u' && lo >= 0xDC00 && lo <= 0xDFFF {
					w.out = utf8.AppendRune(w.out, utf16.DecodeRune(u, lo))
					p += 6
				} else {
					w.out = appendU(w.out, u)
				}
			case u < 0x20 || u == '"' || u == '\\':
				w.out = appendEscaped(w.out, u)
			default:
				w.out = utf8.AppendRune(w.out, u)
			}
		default:
			return 0, false
		}
		start = p
	}
	return 0, false
}
