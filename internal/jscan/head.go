package jscan

import "bytes"

// BOM is the UTF-8 byte order mark a JSON file may start with.
var BOM = []byte("\xef\xbb\xbf")

// FirstLine is the first non-blank line of head, the first bytes of a JSON
// Lines file (after a byte order mark), as a sniffer of a format reads it:
// the line with its blanks trimmed, and whether it is whole (a line end
// follows it, or it is valid JSON as it stands). A line that is not whole
// was cut off by the end of head, and the sniffer judges it by how it
// begins. ok is false when head holds no such line.
func FirstLine(head []byte) (line []byte, whole, ok bool) {
	head = bytes.TrimPrefix(head, BOM)
	for len(head) > 0 {
		l, rest, found := bytes.Cut(head, []byte{'\n'})
		head = rest
		if l = bytes.TrimSpace(l); len(l) > 0 {
			return l, found || Valid(l), true
		}
	}
	return nil, false, false
}
