package claudeai

import (
	"slices"
	"strconv"
	"time"

	"skein/internal/jscan"
	"skein/internal/jsjson"
)

// ids hands out identifiers unique within one file: a base the first time,
// then the base with ~2, ~3, ... (an export may repeat a uuid).
type ids struct{ used map[string]bool }

func (s *ids) take(base string) string {
	if s.used == nil {
		s.used = map[string]bool{}
	}
	if base == "" {
		base = "entry"
	}
	id := base
	for n := 2; s.used[id]; n++ {
		id = base + "~" + strconv.Itoa(n)
	}
	s.used[id] = true
	return id
}

// writer builds a session file's lines: JSON built with jsjson, one
// object a line.
type writer struct {
	buf []byte
	ids ids
}

// header writes the session line.
func (w *writer) header(id string, ms int64) {
	w.buf = append(w.buf, `{"type":"session","version":3,"id":`...)
	w.buf = jsjson.AppendString(w.buf, id)
	w.buf = append(w.buf, `,"timestamp":`...)
	w.buf = jsjson.AppendString(w.buf, iso(ms))
	w.buf = append(w.buf, `,"cwd":""}`+"\n"...)
}

// begin opens an entry line with its type, id, parent ("" for a root) and
// time; the caller appends ,"member":value pairs and calls end.
func (w *writer) begin(typ, id, parent string, ms int64) {
	w.buf = append(w.buf, `{"type":`...)
	w.buf = jsjson.AppendString(w.buf, typ)
	w.buf = append(w.buf, `,"id":`...)
	w.buf = jsjson.AppendString(w.buf, id)
	w.buf = append(w.buf, `,"parentId":`...)
	if parent == "" {
		w.buf = append(w.buf, "null"...)
	} else {
		w.buf = jsjson.AppendString(w.buf, parent)
	}
	w.buf = append(w.buf, `,"timestamp":`...)
	w.buf = jsjson.AppendString(w.buf, iso(ms))
}

func (w *writer) end() { w.buf = append(w.buf, "}\n"...) }

// custom writes a custom entry whose data is raw JSON, rewritten as
// JSON.stringify writes it (one line, invalid UTF-8 replaced).
func (w *writer) custom(id, parent string, ms int64, kind string, data []byte) {
	w.begin("custom", id, parent, ms)
	w.buf = append(w.buf, `,"customType":`...)
	w.buf = jsjson.AppendString(w.buf, "claudeai."+kind)
	w.buf = append(w.buf, `,"data":`...)
	w.buf = jsjson.AppendValue(w.buf, data)
	w.end()
}

// iso is a time as toISOString writes it.
func iso(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z") }

// timeLayouts are the forms of a time the export writes (ISO 8601 with
// any precision and offset) and a few near misses; without an offset a
// time is UTC.
var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
}

// parseTime reads a raw JSON time string as milliseconds since the epoch.
func parseTime(raw []byte) (int64, bool) {
	s, ok := jscan.String(raw)
	if !ok || len(s) < 10 || len(s) > 64 {
		return 0, false
	}
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			if y := t.UTC().Year(); y < 0 || y > 9999 {
				return 0, false
			}
			return t.UnixMilli(), true
		}
	}
	return 0, false
}

// pick returns the raw values of the named members of obj (the last of
// each, as JSON.parse keeps; nil when absent) in one pass over it, and
// whether obj has a member not named whose value is not trivial.
func pick(obj []byte, names ...string) (vals [][]byte, other bool) {
	vals = make([][]byte, len(names))
	if !isObject(obj) {
		return vals, false
	}
	jscan.Fields(obj, func(k, v []byte) bool {
		for i, n := range names {
			if jscan.KeyIs(k, n) {
				vals[i] = v
				return true
			}
		}
		other = other || !trivial(v)
		return true
	})
	return vals, other
}

// kept reports whether a member's value is one its entry does not carry
// (not a string), and not trivial: one that leftovers keeps.
func kept(v []byte) bool { return v != nil && !jscan.IsString(v) && !trivial(v) }

// some reports whether any of the values is not trivial.
func some(vals ...[]byte) bool {
	for _, v := range vals {
		if v != nil && !trivial(v) {
			return true
		}
	}
	return false
}

// skipping is a leftovers filter that leaves out the members named.
func skipping(names ...string) func(string) bool {
	return func(name string) bool {
		for _, n := range names {
			if name == n {
				return false
			}
		}
		return true
	}
}

func member(obj []byte, key string) []byte {
	if !isObject(obj) {
		return nil
	}
	return jscan.Member(obj, key)
}

func isObject(raw []byte) bool { return len(raw) > 0 && raw[0] == '{' }
func isArray(raw []byte) bool  { return len(raw) > 0 && raw[0] == '[' }
func isNull(raw []byte) bool   { return len(raw) == 0 || string(raw) == "null" }

// elements calls fn with each element of a raw array (valid JSON, as all
// that Read hands on is); nothing for anything else.
func elements(raw []byte, fn func(el []byte)) {
	if !isArray(raw) {
		return
	}
	jscan.Items(raw, func(el []byte) bool {
		fn(el)
		return true
	})
}

// trivial reports whether a value says nothing: null, false, "", [] or {}.
func trivial(raw []byte) bool {
	switch {
	case isNull(raw), string(raw) == "false", string(raw) == `""`:
		return true
	case isArray(raw):
		empty := true
		jscan.Items(raw, func([]byte) bool { empty = false; return false })
		return empty
	case isObject(raw):
		empty := true
		jscan.Fields(raw, func(_, _ []byte) bool { empty = false; return false })
		return empty
	}
	return false
}

// leftovers is the object of obj's members that keep is true of and whose
// values are not trivial, in JavaScript's order, or nil when there is none.
func leftovers(obj []byte, keep func(name string) bool) []byte {
	var out []byte
	add := func(name string, val []byte) {
		if !keep(name) || trivial(val) {
			return
		}
		if out == nil {
			out = append(out, '{')
		} else {
			out = append(out, ',')
		}
		out = jsjson.AppendKey(out, name)
		out = jsjson.AppendValue(out, val)
	}
	// Most objects have neither a repeated key nor an array-index key, and
	// their members come in the order JavaScript gives them: one pass. The
	// others go the way JSON.parse orders them.
	var seen [24]string
	n, simple := 0, true
	jscan.Fields(obj, func(k, v []byte) bool {
		name := jscan.Key(k)
		if n == len(seen) || name == "" || name[0] >= '0' && name[0] <= '9' || slices.Contains(seen[:n], name) {
			simple = false
			return false
		}
		seen[n] = name
		n++
		add(name, v)
		return true
	})
	if !simple {
		out = nil
		jsjson.ObjectEntries(obj, add)
	}
	if out == nil {
		return nil
	}
	return append(out, '}')
}

// kindName is a value made safe for a customType: letters, digits, _ - and .
func kindName(s string) string {
	var b []byte
	for _, c := range []byte(s) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' {
			b = append(b, c)
		}
		if len(b) == 64 {
			break
		}
	}
	if len(b) == 0 {
		return "block"
	}
	return string(b)
}
