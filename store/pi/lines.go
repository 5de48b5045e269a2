package pi

import (
	"skein/internal/jscan"
	"skein/internal/jsjson"
)

// LineV3 is entry i as a version 3 line. An entry read from a v3 file is its
// original bytes; a migrated one is rebuilt as pi's migration leaves it:
// the original members in order (a v1 compaction's firstKeptEntryIndex
// dropped), then the new id and parentId, then firstKeptEntryId; a
// hookMessage role renamed custom in place.
func (s *Session) LineV3(i int) []byte {
	e := &s.Entries[i]
	if !e.MigratedID && !e.RenamedRole {
		return e.Raw
	}
	out := []byte{'{'}
	first := true
	add := func(key string, val []byte) {
		if !first {
			out = append(out, ',')
		}
		first = false
		out = jsjson.AppendKey(out, key)
		out = append(out, val...)
	}
	var firstKept []byte
	if e.MigratedID && e.Type == TypeCompaction {
		if id, ok := s.FirstKeptEntryID(e); ok {
			firstKept = jsjson.AppendString(nil, id)
		}
	}
	jscan.Fields(e.Raw, func(k, v []byte) bool {
		name := jscan.Key(k)
		switch {
		case e.MigratedID && (name == "id" || name == "parentId"):
			return true // replaced below, as pi reassigns them
		case e.MigratedID && name == "firstKeptEntryIndex" && e.Type == TypeCompaction:
			return true
		case e.RenamedRole && name == "message":
			add(name, appendReplacingMembers(nil, v, []member{{"role", []byte(`"custom"`)}}))
			return true
		}
		add(name, v)
		return true
	})
	if e.MigratedID {
		add("id", jsjson.AppendString(nil, e.ID))
		if e.ParentID == "" {
			add("parentId", []byte("null"))
		} else {
			add("parentId", jsjson.AppendString(nil, e.ParentID))
		}
		if firstKept != nil {
			add("firstKeptEntryId", firstKept)
		}
	}
	return append(out, '}')
}

// LabelState is what the label entries of the whole file leave on a target:
// its label ("" when cleared) and the time of the entry that decided it.
type LabelState struct {
	Label     string
	Timestamp string
}

// LabelStates resolves the label entries among entries (indexes, in file
// order) per target id, the last one winning, as pi's index does.
func (s *Session) LabelStates(entries []int) map[string]LabelState {
	out := map[string]LabelState{}
	for _, i := range entries {
		e := &s.Entries[i]
		if e.Type != TypeLabel {
			continue
		}
		target, _ := e.StringField("targetId")
		label, _ := e.StringField("label")
		out[target] = LabelState{label, e.Timestamp}
	}
	return out
}

// All returns the indexes of every entry, in file order.
func (s *Session) All() []int {
	all := make([]int, len(s.Entries))
	for i := range all {
		all[i] = i
	}
	return all
}
