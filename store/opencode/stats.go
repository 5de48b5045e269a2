package opencode

import (
	"math"

	"skein/model"
)

// Stats are the session's totals: its messages by role, its tool calls,
// and each assistant message's tokens (one model request), to its
// provider/model. OpenCode stores input less the cached tokens (cache.read)
// and output less the reasoning tokens: skein's output counts them again,
// as the model reported it. A cost OpenCode recorded (its models.dev price)
// is kept; none recorded is the price table's. A sub-agent's usage is its
// own session's.
func (s *Session) Stats() model.Stats {
	st := model.NewStatsTally()
	st.Leaves = min(1, len(s.Entries))
	for i := range s.Entries {
		e := s.Entries[i]
		m := &s.Messages[e.Msg]
		t := m.Created
		if t <= 0 {
			t = math.NaN()
		}
		d := st.Begin(t)
		if e.Part >= 0 {
			d.AddMessage(model.RoleToolResult)
			st.End(t, d)
			continue
		}
		d.AddMessage(m.Data.Role)
		if m.Data.Role == model.RoleAssistant {
			for _, p := range m.Parts {
				if p.Type == "tool" {
					st.Tool(&d, p.Tool)
				}
			}
			if errorText(m.Data.Error) != "" {
				d.Errors++
			}
			key := m.Data.ProviderID + "/" + m.Data.ModelID
			st.Model(key)
			if tk := m.Data.Tokens; tk != nil {
				u := model.UsageTotals{TokensIn: tk.Input, TokensOut: tk.Output + tk.Reasoning, CacheRead: tk.Cache.Read, CacheWrite: tk.Cache.Write}
				if m.Data.Cost > 0 {
					u.Cost = m.Data.Cost
					st.Usage(&d, key, u)
				} else {
					st.PricedUsage(&d, key, m.Data.ModelID, u)
				}
			}
		}
		st.End(t, d)
	}
	return st.Done(nil)
}
