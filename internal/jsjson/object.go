package jsjson

import (
	"sort"
	"strconv"

	"skein/internal/jscan"
)

// Members is a JavaScript object being built: members keep the place
// of their first insertion, a deleted one loses it, as in a Map.
type Members struct {
	Names []string
	Vals  map[string][]byte
}

// Set sets a member.
func (o *Members) Set(name string, val []byte) {
	if o.Vals == nil {
		o.Vals = map[string][]byte{}
	}
	if _, ok := o.Vals[name]; !ok {
		o.Names = append(o.Names, name)
	}
	o.Vals[name] = val
}

// Delete removes a member.
func (o *Members) Delete(name string) {
	if _, ok := o.Vals[name]; !ok {
		return
	}
	delete(o.Vals, name)
	for i, n := range o.Names {
		if n == name {
			o.Names = append(o.Names[:i], o.Names[i+1:]...)
			break
		}
	}
}

// KeyOrder is the order in which JavaScript enumerates an object's own
// keys: array indexes (canonical integers below 2^32-1) ascending, then the
// other keys in insertion order.
func KeyOrder(names []string) []string {
	out := append([]string(nil), names...)
	sort.SliceStable(out, func(a, b int) bool {
		ia, aok := indexKey(out[a])
		ib, bok := indexKey(out[b])
		switch {
		case aok && bok:
			return ia < ib
		default:
			return aok && !bok
		}
	})
	return out
}

// indexKey reports whether key is a canonical array index.
func indexKey(key string) (uint64, bool) {
	if key == "" || len(key) > 10 || (key[0] == '0' && len(key) > 1) {
		return 0, false
	}
	n, err := strconv.ParseUint(key, 10, 64)
	return n, err == nil && n < 1<<32-1
}

// ObjectEntries calls fn with the members of a raw object as Object.entries
// gives them: JSON.parse keeps the last value of a duplicate key at the
// place of its first, and indexes come first.
func ObjectEntries(obj []byte, fn func(name string, val []byte)) {
	if len(obj) == 0 || obj[0] != '{' {
		return
	}
	var o Members
	jscan.Fields(obj, func(k, v []byte) bool {
		name, _ := jscan.Unquote(k)
		o.Set(name, v)
		return true
	})
	for _, name := range KeyOrder(o.Names) {
		fn(name, o.Vals[name])
	}
}
