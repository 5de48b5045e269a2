package copilot

import (
	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
)

// Provider is the provider part of a model's key in the stats: Copilot's
// usage records name the model alone.
const Provider = "github-copilot"

// tokens are a usage record's figures (session.usage_record's usage, or a
// compaction's compactionTokensUsed): inputTokens counts the cached ones,
// which skein counts apart as cache reads.
type tokens struct {
	in, out, cacheRead, cacheWrite, reasoning float64
	model                                     string
	complete                                  bool
}

func usageOf(u []byte) tokens {
	var t tokens
	var ok [2]bool
	jscan.Fields(u, func(k, v []byte) bool {
		switch jscan.Key(k) {
		case "inputTokens":
			t.in, ok[0] = jscan.Number(v)
		case "outputTokens":
			t.out, ok[1] = jscan.Number(v)
		case "cacheReadTokens":
			t.cacheRead, _ = jscan.Number(v)
		case "cacheWriteTokens":
			t.cacheWrite, _ = jscan.Number(v)
		case "reasoningTokens":
			t.reasoning, _ = jscan.Number(v)
		case "model":
			t.model, _ = jscan.String(v)
		}
		return true
	})
	t.complete = ok[0] && ok[1]
	return t
}

func (t tokens) totals() model.UsageTotals {
	return model.UsageTotals{TokensIn: max(t.in-t.cacheRead, 0), TokensOut: t.out, CacheRead: t.cacheRead, CacheWrite: t.cacheWrite}
}

func (t tokens) message() *model.Usage {
	u := t.totals()
	return &model.Usage{Input: u.TokensIn, Output: u.TokensOut, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite, Reasoning: t.reasoning}
}

// Stats are the session's totals over every event, sub-agents' included:
// messages by role, calls by tool, and the tokens of every model call,
// which Copilot records once each: a session.usage_record per call of the
// agent loops, and a compaction's call only in its compaction_complete
// (compactionTokensUsed, written whether the compaction was applied or
// cancelled). The totals session.shutdown repeats are not counted.
func (s *Session) Stats() model.Stats {
	st := model.NewStatsTally()
	key := func(m string) string { return model.ModelKey(Provider, m) }
	st.Leaves = 1
	for i := range s.Events {
		e := &s.Events[i]
		t := jsdate.Parse(e.Timestamp)
		d := st.Begin(t)
		switch {
		case e.kind == model.EntryMessage:
			d.AddMessage(e.role)
			switch e.Type {
			case TypeError:
				d.Errors++
			case TypeAssistant:
				jscan.Items(jscan.Member(e.Data, "toolRequests"), func(v []byte) bool {
					st.Tool(&d, str(v, "name"))
					return true
				})
			}
		case e.kind == model.EntryCompaction:
			st.Compactions++
		}
		var u []byte
		switch e.Type {
		case TypeUsage:
			u = jscan.Member(e.Data, "usage")
		case TypeCompactionComplete:
			u = jscan.Member(e.Data, "compactionTokensUsed")
		}
		if len(u) > 0 && u[0] == '{' {
			tk := usageOf(u)
			if !tk.complete {
				st.Incomplete++
			}
			k := key(tk.model)
			st.Model(k)
			if ut := tk.totals(); ut.Tokens() > 0 {
				st.PricedUsage(&d, k, tk.model, ut) // Copilot records no cost
			}
		}
		st.End(t, d)
	}
	return st.Done(nil)
}
