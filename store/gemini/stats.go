package gemini

import (
	"skein/internal/jsdate"
	"skein/model"
)

// Stats are the session's totals over every message the file ever
// recorded, those a compression or a rewind dropped included (their tokens
// were spent): the messages by role, the calls by tool, and each model
// turn's tokens, the last its id was written with (a $set of messages
// may write a turn again without them). Input counts the cached tokens,
// which are cache reads here; a turn's thoughts are output.
func (s *Session) Stats() model.Stats {
	st := model.NewStatsTally()
	key := func(m string) string { return model.ModelKey("google", m) }
	for k := range s.msgs {
		if r := &s.msgs[k]; r.Type == "gemini" && r.Tokens != nil {
			st.Model(key(r.Model))
		}
	}
	st.Leaves = s.tips()
	for i := range s.Entries {
		e := &s.Entries[i]
		t := jsdate.Parse(s.Entry(i).Timestamp)
		d := st.Begin(t)
		switch {
		case e.kind == model.EntryCompaction:
			st.Compactions++
		case e.kind == model.EntryMessage:
			d.AddMessage(e.role)
			r := &s.msgs[e.msg]
			if r.Type == "gemini" {
				for _, b := range modelBlocks(r, parts(r.Content)) {
					if b.Type == model.BlockToolCall {
						st.Tool(&d, b.Call.Name)
					}
				}
				if tk := r.Tokens; tk != nil {
					st.PricedUsage(&d, key(r.Model), r.Model, model.UsageTotals{TokensIn: max(tk.Input-tk.Cached, 0), CacheRead: tk.Cached, TokensOut: tk.Output + tk.Thoughts})
				}
			}
		}
		st.End(t, d)
	}
	return st.Done(nil)
}
