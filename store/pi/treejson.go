package pi

import (
	"io"

	"skein/model"
)

// WriteTreeJSON writes the tree as an array of root nodes
// {id, type, role, label, children}, children in pi's order.
func (s *Session) WriteTreeJSON(w io.Writer) error {
	return model.WriteTree(w, s.Roots(), s.Children, func(buf []byte, i int) []byte {
		e := &s.Entries[i]
		l, ok := s.labels[i]
		return model.AppendTreeNode(buf, e.ID, e.HasID, e.Type, e.Role, e.Type == TypeMessage && e.Role != "", l, ok)
	})
}
