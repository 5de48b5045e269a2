package jscan

// Numbers reads the members of obj (valid JSON, as Fields wants it) that
// keys names, each into the float at the same index of to: the member's
// number, 0 when it holds anything else. The last of a repeated key wins;
// a key obj lacks leaves its float as it was. A usage object's token
// counts are such a table in every format, each read with a switch of
// its own before.
func Numbers(obj []byte, keys []string, to ...*float64) {
	Fields(obj, func(k, v []byte) bool {
		name := Key(k)
		for j, key := range keys {
			if name == key {
				*to[j], _ = Number(v)
				break
			}
		}
		return true
	})
}

// Strings is Numbers for string members (each "" when it holds no
// string), and hands every member keys does not name to rest, which may
// be nil: a record's envelope (id, parentId, timestamp...) is read as a
// table, and what needs more than a string (an object, a string whose
// absence matters) in rest.
func Strings(obj []byte, keys []string, to []*string, rest func(key string, val []byte)) {
	Fields(obj, func(k, v []byte) bool {
		name := Key(k)
		for j, key := range keys {
			if name == key {
				*to[j], _ = String(v)
				return true
			}
		}
		if rest != nil {
			rest(name, v)
		}
		return true
	})
}

// Raws walks obj as ObjectIter does, checking it, and puts the raw value
// of each member keys names into the slice at the same index of to, the
// last of a repeated key winning; its error is ObjectIter's. A line's
// envelope read by a format that looks at the values itself is such a
// table.
func Raws(obj []byte, keys []string, to ...*[]byte) error {
	it := Object(obj)
	for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
		name := it.Name(k)
		for j, key := range keys {
			if name == key {
				*to[j] = v
				break
			}
		}
	}
	return it.Err()
}
