package export

import (
	"skein/internal/par"
	"skein/internal/redact"
	"skein/model"
)

// counted is what an export of s that shows msgs redacts: a pass over
// its name, Info and those messages' records, on every core, before the
// export is written, so that its top can say how many secrets of each kind it
// removed (each once, though a page shows a message twice: in a branch's
// preview and in the branch).
func counted(s *model.Session, msgs []model.ContextMessage) *redact.Redactor {
	c, r := s.Redacted()
	c.Name()
	par.Range(len(msgs), func(lo, hi int) {
		for _, m := range msgs[lo:hi] {
			// A message's record as stored holds its text, escaped as
			// redact reads it: one whose record holds no secret is not
			// decoded here (the export filters it all the same; a secret
			// the record hides, in a JSON escape or in another record, is
			// redacted and only not counted).
			if raw := s.Raw(m.Entry); raw != nil && len(redact.Find(raw)) == 0 {
				continue
			}
			c.Message(m)
		}
	})
	return r
}
