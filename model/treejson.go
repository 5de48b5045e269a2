package model

import (
	"bufio"
	"io"

	"skein/internal/jsjson"
)

// WriteTree writes a tree of entries as JSON, an array of root nodes
// {..., children}: node appends the members of entry i before its
// children (without the braces). Iterative, so that a chain of 100,000
// entries does not recurse that deep; written out 64 KB at a time.
func WriteTree(w io.Writer, roots []int, children func(i int) []int, node func(dst []byte, i int) []byte) error {
	bw := bufio.NewWriter(w)
	type frame struct {
		nodes []int
		next  int
	}
	stack := []frame{{nodes: roots}}
	buf := []byte{'['}
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
		buf = node(append(buf, '{'), i)
		buf = append(buf, `,"children":[`...)
		stack = append(stack, frame{nodes: children(i)})
		if len(buf) > 64<<10 {
			bw.Write(buf)
			buf = buf[:0]
		}
	}
	bw.Write(buf)
	return bw.Flush()
}

// AppendTreeNode appends a tree node's common members, "id", "type",
// "role" and "label", each a string or, when its ok is false, null.
func AppendTreeNode(dst []byte, id string, idOK bool, typ, role string, roleOK bool, label string, labelOK bool) []byte {
	str := func(dst []byte, v string, ok bool) []byte {
		if !ok {
			return append(dst, "null"...)
		}
		return jsjson.AppendString(dst, v)
	}
	dst = str(append(dst, `"id":`...), id, idOK)
	dst = str(append(dst, `,"type":`...), typ, typ != "")
	dst = str(append(dst, `,"role":`...), role, roleOK)
	return str(append(dst, `,"label":`...), label, labelOK)
}
