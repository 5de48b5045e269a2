package dhara

import (
	"bytes"
	"fmt"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/store"
)

// Field is one member of a new entry; its value is raw JSON (the store's
// type, which pi's writes take too).
type Field = store.Field

// entryLine is a new entry's line as the seed writes one: id, type, its
// fields, timestamp.
func entryLine(id, typ string, fields []Field, timestamp string) []byte {
	return appendEntryLine(make([]byte, 0, entryLineSize(id, typ, fields, timestamp)), id, typ, fields, timestamp)
}

// entryLineSize is room for entryLine's bytes: its strings' escapes
// aside, which id, type, keys and timestamp rarely have.
func entryLineSize(id, typ string, fields []Field, timestamp string) int {
	n := 48 + len(id) + len(typ) + len(timestamp)
	for _, f := range fields {
		n += len(f.Key) + len(f.Value) + 4
	}
	return n
}

// appendEntryLine appends entryLine's bytes to b.
func appendEntryLine(b []byte, id, typ string, fields []Field, timestamp string) []byte {
	b = append(b, `{"id":`...)
	b = jsjson.AppendString(b, id)
	b = append(b, `,"type":`...)
	b = jsjson.AppendString(b, typ)
	b = store.AppendFields(b, fields)
	b = append(b, `,"timestamp":`...)
	b = jsjson.AppendString(b, timestamp)
	return append(b, '}')
}

func jsonString(s string) []byte { return jsjson.AppendString(nil, s) }

func jsonStrings(list []string) []byte { return jsjson.AppendStrings(nil, list) }

// setMember sets one member of a JSON object, keeping the others and their
// order (a new member goes last); a nil value removes it.
func setMember(obj []byte, key string, val []byte) ([]byte, error) {
	out := []byte{'{'}
	found := false
	err := jscan.Members(bytes.TrimPrefix(obj, jscan.BOM), func(k, v []byte) bool {
		if jscan.Key(k) == key {
			if found || val == nil {
				return true
			}
			found, v = true, val
		}
		out = jscan.AppendMember(out, k, v)
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if !found && val != nil {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = jsjson.AppendKey(out, key)
		out = append(out, val...)
	}
	return append(out, '}'), nil
}

// indent is a JSON value two-space indented as the seed shows meta.json
// and tree.json: an object's members and an array of objects one per line,
// an array of strings and numbers (a branch's entryIds) on one line; with a
// final newline. A value that is not valid JSON is left as it is.
func indent(v []byte) []byte {
	v = bytes.TrimPrefix(v, jscan.BOM)
	if !jscan.Valid(v) {
		return v
	}
	var b bytes.Buffer
	writeIndented(&b, bytes.TrimSpace(v), 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func writeIndented(b *bytes.Buffer, v []byte, depth int) {
	pad := func(d int) {
		b.WriteByte('\n')
		for range d {
			b.WriteString("  ")
		}
	}
	switch {
	case len(v) > 0 && v[0] == '{':
		b.WriteByte('{')
		n := 0
		jscan.Fields(v, func(k, val []byte) bool {
			if n > 0 {
				b.WriteByte(',')
			}
			pad(depth + 1)
			b.Write(k)
			b.WriteString(": ")
			writeIndented(b, val, depth+1)
			n++
			return true
		})
		if n > 0 {
			pad(depth)
		}
		b.WriteByte('}')
	case len(v) > 0 && v[0] == '[':
		flat := true
		jscan.Items(v, func(x []byte) bool {
			flat = len(x) > 0 && x[0] != '{' && x[0] != '['
			return flat
		})
		b.WriteByte('[')
		n := 0
		jscan.Items(v, func(x []byte) bool {
			if n > 0 {
				b.WriteByte(',')
				if flat {
					b.WriteByte(' ')
				}
			}
			if !flat {
				pad(depth + 1)
			}
			writeIndented(b, x, depth+1)
			n++
			return true
		})
		if !flat && n > 0 {
			pad(depth)
		}
		b.WriteByte(']')
	default:
		b.Write(v)
	}
}

// treeWith is tree.json with a branch added and ids appended to a branch,
// every other member as it was.
func treeWith(raw []byte, implicit, add *Branch, onBranch string, ids []string) ([]byte, error) {
	if raw == nil {
		raw = []byte(`{"branches":[]}`)
	}
	branches := jscan.Member(bytes.TrimPrefix(raw, jscan.BOM), "branches")
	if branches == nil {
		branches = []byte("[]")
	}
	out := []byte{'['}
	n := 0
	err := jscan.Elements(branches, func(b []byte) bool {
		if len(ids) > 0 && jscan.IsString(jscan.Member(b, "id")) {
			if id, _ := jscan.String(jscan.Member(b, "id")); id == onBranch {
				list := append(stringList(jscan.Member(b, "entryIds")), ids...)
				var err error
				if b, err = setMember(b, "entryIds", jsonStrings(list)); err != nil {
					return false
				}
			}
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
		n++
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("%s: branches: %w", TreeFile, err)
	}
	for _, add := range []*Branch{implicit, add} {
		if add == nil {
			continue
		}
		list := add.EntryIDs
		if add.ID == onBranch {
			list = append(list, ids...)
		}
		b := []byte(`{"id":`)
		b = jsjson.AppendString(b, add.ID)
		b = append(b, `,"parentBranchId":`...)
		if add.ParentBranchID == "" {
			b = append(b, "null"...)
		} else {
			b = jsjson.AppendString(b, add.ParentBranchID)
		}
		b = append(b, `,"entryIds":`...)
		b = append(b, jsonStrings(list)...)
		b = append(b, `,"createdAt":`...)
		b = jsjson.AppendString(b, add.CreatedAt)
		b = append(b, '}')
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
		n++
	}
	out = append(out, ']')
	tree, err := setMember(raw, "branches", out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", TreeFile, err)
	}
	if first := firstOf(implicit, add); jscan.Member(tree, "root") == nil && first != nil {
		tree, _ = setMember(tree, "root", jsonString(first.ID))
	}
	return indent(tree), nil
}

func firstOf(bs ...*Branch) *Branch {
	for _, b := range bs {
		if b != nil {
			return b
		}
	}
	return nil
}
