package export

import (
	"bufio"
	"bytes"
	"io"
	"time"

	"skein/internal/redact"
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

// redactedJSON writes JSON of s with its secrets redacted, and says what
// went. A Dhara session's json is its own lines, which its filtered
// session hides (model.SourceOf): those are redacted a line at a time as
// they are written, so that the document stays the one it was, its text
// apart (a secret never spans a line of JSON, and a replacement keeps a
// line valid).
func redactedJSON(w io.Writer, s *model.Session, now time.Time) (string, error) {
	if dhara.Of(s) == nil {
		f, r := s.Redacted()
		if err := JSON(w, f, now); err != nil {
			return "", err
		}
		return r.Summary(), nil
	}
	lw := &lineRedactor{w: w, r: redact.New()}
	if err := JSON(lw, s, now); err != nil {
		return "", err
	}
	if err := lw.flush(); err != nil {
		return "", err
	}
	return lw.r.Summary(), nil
}

// lineRedactor writes what it is given a line at a time, redacted.
type lineRedactor struct {
	w    io.Writer
	r    *redact.Redactor
	line []byte
}

func (l *lineRedactor) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		k := bytes.IndexByte(p, '\n')
		if k < 0 {
			l.line = append(l.line, p...)
			break
		}
		l.line = append(l.line, p[:k+1]...)
		p = p[k+1:]
		if err := l.flush(); err != nil {
			return 0, err
		}
	}
	return n, nil
}

func (l *lineRedactor) flush() error {
	if len(l.line) == 0 {
		return nil
	}
	_, err := l.w.Write(l.r.Bytes(l.line))
	l.line = l.line[:0]
	return err
}
