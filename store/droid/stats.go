package droid

import (
	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
)

// Stats are the session's totals over every entry: the messages by role,
// the calls by tool, and the tokens. Droid keeps no usage in the log: the
// session's settings file holds its totals (tokenUsage: every response's
// usage added up, the failed ones' none), counted once, at the last
// entry, under the settings' model and priced by it.
func (s *Session) Stats() model.Stats {
	st := model.NewStatsTally()
	st.Leaves = s.Tips()
	last := -1
	for i := range s.Entries {
		if s.Entries[i].kind == model.EntryMessage {
			last = i
		}
	}
	for i := range s.Entries {
		e := &s.Entries[i]
		t := jsdate.Parse(e.Timestamp)
		d := st.Begin(t)
		if e.kind == model.EntryMessage {
			d.AddMessage(e.role)
			if e.role == model.RoleAssistant && e.Visibility != "user_only" {
				jscan.Items(e.Content, func(b []byte) bool {
					if jscan.StringMember(b, "type") == "tool_use" {
						st.Tool(&d, jscan.StringMember(b, "name"))
					}
					return true
				})
			}
		}
		if i == last && s.Usage != nil {
			m := s.Model
			if m == "" {
				m = model.UnknownModel
			}
			st.Model(m)
			u := model.UsageTotals{TokensIn: s.Usage.Input, TokensOut: s.Usage.Output, CacheRead: s.Usage.CacheRead, CacheWrite: s.Usage.CacheCreation}
			if u.Tokens() > 0 {
				st.PricedUsage(&d, m, s.Model, u)
			}
		}
		st.End(t, d)
	}
	return st.Done(nil)
}
