package cline

import (
	"math"

	"skein/model"
)

// Stats are the session's totals over every message, sub-agents'
// included: messages by role, calls by tool, and the tokens of each reply
// whose message carries metrics (Cline writes them on the last assistant
// message of each model call). inputTokens counts the cached tokens,
// which skein counts apart as cache reads. A reply priced by Cline
// (metrics.cost) keeps its cost; any other is priced from the table.
func (s *Session) Stats() model.Stats {
	st := model.NewStatsTally()
	st.Leaves = 1
	for i := range s.Entries {
		e := &s.Entries[i]
		t := math.NaN()
		if e.Ts != nil {
			t = *e.Ts
		}
		d := st.Begin(t)
		bs := blocks(e.Content)
		if e.Role == "user" && resultsOnly(bs) {
			for _, b := range bs {
				if b.Type == "tool_result" {
					d.AddMessage(model.RoleToolResult)
				}
			}
		} else {
			d.AddMessage(e.role)
		}
		for _, b := range bs {
			if b.Type == "tool_use" {
				st.Tool(&d, b.Name)
			}
		}
		if mt := e.Metrics; mt != nil && e.Role == "assistant" {
			id, provider := "", ""
			if e.ModelInfo != nil {
				id, provider = e.ModelInfo.ID, e.ModelInfo.Provider
			}
			key := model.ModelKey(provider, id)
			st.Model(key)
			u := model.UsageTotals{TokensIn: max(mt.InputTokens-mt.CacheReadTokens, 0), TokensOut: mt.OutputTokens, CacheRead: mt.CacheReadTokens, CacheWrite: mt.CacheWriteTokens}
			if mt.Cost != nil {
				u.Cost = *mt.Cost
				st.Usage(&d, key, u)
			} else {
				st.PricedUsage(&d, key, id, u)
			}
		}
		st.End(t, d)
	}
	return st.Done(nil)
}
