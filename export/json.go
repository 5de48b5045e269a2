package export

import (
	"bufio"
	"io"
	"time"

	"skein/model"
	"skein/store/dhara"
)

// JSON writes the session in Dhara's model: {"meta": meta.json's object,
// "entries": entries.jsonl's objects, "tree": tree.json's object}, for a
// session of any format.
func JSON(w io.Writer, s *model.Session, now time.Time) error {
	bw := bufio.NewWriter(w)
	if err := dhara.WriteJSONOf(bw, s, now); err != nil {
		return err
	}
	return bw.Flush()
}
