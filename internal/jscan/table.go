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
