package pi

import (
	"bufio"
	"io"

	"skein/internal/jsjson"
)

// WriteTreeJSON writes the tree as an array of root nodes
// {id, type, role, label, children}, children in pi's order.
func (s *Session) WriteTreeJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var buf []byte
	// Iterative, so that a 100,000-entry chain does not recurse that deep.
	type frame struct {
		nodes []int
		next  int
	}
	stack := []frame{{nodes: s.Roots()}}
	buf = append(buf, '[')
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == len(top.nodes) {
			stack = stack[:len(stack)-1]
			buf = append(buf, ']')
			if len(stack) > 0 {
				buf = append(buf, '}')
			}
			continue
		}
		i := top.nodes[top.next]
		if top.next > 0 {
			buf = append(buf, ',')
		}
		top.next++
		e := &s.Entries[i]
		buf = append(buf, `{"id":`...)
		buf = appendStringOrNull(buf, e.ID, e.HasID)
		buf = append(buf, `,"type":`...)
		buf = appendStringOrNull(buf, e.Type, e.Type != "")
		buf = append(buf, `,"role":`...)
		buf = appendStringOrNull(buf, e.Role, e.Type == TypeMessage && e.Role != "")
		buf = append(buf, `,"label":`...)
		l, ok := s.labels[i]
		buf = appendStringOrNull(buf, l, ok)
		buf = append(buf, `,"children":[`...)
		stack = append(stack, frame{nodes: s.Children(i)})
		if len(buf) > 64<<10 {
			bw.Write(buf)
			buf = buf[:0]
		}
	}
	bw.Write(buf)
	return bw.Flush()
}

func appendStringOrNull(dst []byte, s string, ok bool) []byte {
	if !ok {
		return append(dst, "null"...)
	}
	return jsjson.AppendString(dst, s)
}
