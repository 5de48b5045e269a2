package qwen

import (
	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
)

// Stats are the session's totals over every entry of every branch: the
// message entries by role, the calls by tool, and the tokens. Qwen Code
// writes a ui_telemetry api_response record for every response it gets,
// the session's own, a sub-agent's and a compression's alike (model,
// input_token_count with the cached ones in it, output_token_count with
// the thoughts in it, cached_content_token_count): those are the usage,
// per model. An assistant record's usageMetadata repeats its response's
// figures, and is read only in a chat that has no api_response record.
func (s *Session) Stats() model.Stats {
	st := model.NewStatsTally()
	st.Leaves = s.Tips()
	telemetry := false
	for i := range s.Entries {
		if s.Entries[i].kind == model.EntryUsage {
			telemetry = true
			break
		}
	}
	for i := range s.Entries {
		e := &s.Entries[i]
		t := jsdate.Parse(e.Timestamp)
		d := st.Begin(t)
		switch e.kind {
		case model.EntryMessage:
			d.AddMessage(e.role)
			if e.Type == TypeAssistant {
				for _, p := range s.parts(i) {
					if fc := jscan.ObjectMember(p, "functionCall"); fc != nil {
						st.Tool(&d, jscan.StringMember(fc, "name"))
					}
				}
				if !telemetry {
					if u := usageOf(jscan.ObjectMember(e.Raw, "usageMetadata")); u != nil {
						s.addUsage(st, &d, e.Model, u.Input, u.CacheRead, u.Output)
					}
				}
			}
		case model.EntryCompaction:
			st.Compactions++
		case model.EntryUsage:
			ev := jscan.ObjectMember(e.Payload, "uiEvent")
			in, _ := jscan.Number(jscan.ObjectMember(ev, "input_token_count"))
			out, _ := jscan.Number(jscan.ObjectMember(ev, "output_token_count"))
			cached, _ := jscan.Number(jscan.ObjectMember(ev, "cached_content_token_count"))
			s.addUsage(st, &d, key(jscan.StringMember(ev, "auth_type"), jscan.StringMember(ev, "model")), max(in-cached, 0), cached, out)
		}
		st.End(t, d)
	}
	return st.Done(s.contextSeries())
}

// key is a model as the stats name it: the auth type Qwen Code reached it
// through (its provider: openai, anthropic, gemini, qwen-oauth...) and the
// model, or the model alone when the record names no auth type.
func key(authType, m string) string {
	if authType == "" || m == "" {
		return m
	}
	return authType + "/" + m
}

func (s *Session) addUsage(st *model.StatsTally, d *model.Totals, m string, in, cached, out float64) {
	if m == "" {
		m = model.UnknownModel
	}
	st.Model(m)
	ut := model.UsageTotals{TokensIn: in, CacheRead: cached, TokensOut: out}
	if ut.Tokens() > 0 {
		st.PricedUsage(d, m, m, ut) // Qwen Code records no cost
	}
}

// contextSeries is the context's size along the active branch: each
// assistant record's prompt and output, and a compression's new token
// count (estimated when Qwen Code says so).
func (s *Session) contextSeries() []model.ContextPoint {
	if s.leaf < 0 {
		return nil
	}
	var out []model.ContextPoint
	for _, i := range s.Path(s.leaf) {
		e := &s.Entries[i]
		switch {
		case e.Type == TypeAssistant:
			if u := usageOf(jscan.ObjectMember(e.Raw, "usageMetadata")); u != nil && u.Total > 0 {
				out = append(out, model.ContextPoint{Entry: i, Tokens: u.Total})
			}
		case e.kind == model.EntryCompaction:
			info := jscan.ObjectMember(e.Payload, "info")
			if n, ok := jscan.Number(jscan.ObjectMember(info, "newTokenCount")); ok {
				out = append(out, model.ContextPoint{Entry: i, Tokens: n, Estimated: string(jscan.ObjectMember(info, "newTokenCountIsEstimated")) != "false", Compaction: true})
			}
		}
	}
	return out
}
