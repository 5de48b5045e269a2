package dhara

import (
	"skein/internal/jscan"
	"skein/model"
)

// CopyOf is a Dhara session as a new session of its own: its lines (the
// archive's first) and tree.json as they are, its meta.json with a new id
// and meta's members in place of its own of those names (an import's
// source). False for a session of another format, or one whose meta or
// tree is no JSON. Made over by FromSession instead, a Dhara session
// imported into another folder gained an empty message before each tool
// call and lost what the builder does not know.
func CopyOf(s *model.Session, meta []Field) (Built, bool) {
	b, ok := ownDhara(s)
	if !ok || len(b.Meta) == 0 || b.Meta[0] != '{' {
		return Built{}, false
	}
	b.ID = newFolderID()
	replaced := map[string]bool{"id": true}
	for _, f := range meta {
		replaced[f.Key] = true
	}
	m := append([]byte(`{"id":`), jsonString(b.ID)...)
	_ = jscan.Members(b.Meta, func(k, v []byte) bool {
		if key, _ := jscan.Unquote(k); !replaced[key] {
			m = append(append(append(append(m, ','), k...), ':'), v...)
		}
		return true
	})
	for _, f := range meta {
		if f.Value != nil {
			m = append(append(append(append(m, ','), jsonString(f.Key)...), ':'), f.Value...)
		}
	}
	b.Meta = append(m, '}')
	return b, true
}
