package model

import (
	"bufio"
	"io"
)

// WriteMessagesJSON writes a context as {"messages":[...]}: each item that
// items hands to add, verbatim and in order, 64 KB at a time. It is the
// context JSON of a format whose messages are its own lines or items.
func WriteMessagesJSON(w io.Writer, items func(add func(item []byte))) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(`{"messages":[`)
	first := true
	items(func(item []byte) {
		if !first {
			bw.WriteByte(',')
		}
		first = false
		bw.Write(item)
	})
	bw.WriteString("]}\n")
	return bw.Flush()
}
