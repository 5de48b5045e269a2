package export

import (
	"bufio"
	"io"
	"time"

	"skein/model"
	"skein/store"
)

// JSON writes the session in Dhara's model: {"meta": meta.json's object,
// "entries": entries.jsonl's objects, "tree": tree.json's object}, for a
// session of any format.
func JSON(w io.Writer, s *model.Session, now time.Time) error {
	b := store.DharaModel(s, now, nil)
	bw := bufio.NewWriter(w)
	bw.WriteString(`{"meta":`)
	bw.Write(b.Meta)
	bw.WriteString(`,"entries":[`)
	for k, l := range b.Entries {
		if k > 0 {
			bw.WriteString(",\n")
		} else {
			bw.WriteString("\n")
		}
		bw.Write(l)
	}
	bw.WriteString("\n],\"tree\":")
	bw.Write(b.Tree)
	bw.WriteString("}\n")
	return bw.Flush()
}
