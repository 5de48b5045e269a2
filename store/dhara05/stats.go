package dhara05

import (
	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
)

// isCounted reports whether an entry is one of the messages the list and
// the stats count: an "entry" line of one of Dhara's four roles (what
// `dhara session info` counts as its entries).
func (e *Entry) isCounted() bool { return e.kind == model.EntryMessage }

// Stats are the session's totals over every entry of every branch: the
// messages by role, the tool calls of the assistants' toolCalls, the usage
// of metadata.tokenCount and metadata.cost, the models (the meta line's,
// then any an entry names), and the context's size along the path to the
// leaf.
func (s *Session) Stats() model.Stats {
	st := model.NewStatsTally()
	addModel := func(provider, m string) string {
		if m == "" && provider == "" {
			return ""
		}
		name := provider + "/" + m
		st.Model(name)
		return name
	}
	addModel(s.Meta.Provider, s.Meta.ModelID)
	times := make([]float64, len(s.Entries))
	for i := range times {
		times[i] = jsdate.Parse(s.Entries[i].Timestamp)
	}
	for _, i := range model.TimeOrder(times) {
		e := &s.Entries[i]
		if len(s.Children(i)) == 0 {
			st.Leaves++
		}
		if _, ok := s.Label(i); ok {
			st.Labels++
		}
		t := times[i]
		d := st.Begin(t)
		if e.isCounted() {
			d.Messages++
			switch e.role {
			case model.RoleUser:
				d.UserMessages++
			case model.RoleAssistant:
				d.AssistantMessages++
				msg := s.Message(model.ContextMessage{Entry: i})
				key := addModel(msg.Provider, msg.Model)
				for _, c := range msg.ToolCalls() {
					st.Tool(&d, c.Name)
				}
				if u := msg.Usage; u != nil {
					if incomplete(jscan.Member(e.Raw, "metadata")) {
						st.Incomplete++
					}
					st.Usage(&d, key, model.UsageTotals{TokensIn: u.Input, TokensOut: u.Output, Cost: u.Cost})
				}
			case model.RoleToolResult:
				d.ToolResults++
			}
		}
		st.End(t, d)
	}
	return st.Done(s.contextSeries())
}

// contextSeries is the context's size along the path to the leaf: after an
// assistant message whose tokenCount says so, its input and output;
// otherwise an estimate of the messages so far.
func (s *Session) contextSeries() []model.ContextPoint {
	if s.leaf < 0 {
		return nil
	}
	var out []model.ContextPoint
	est := 0.0
	for _, i := range s.Path(s.leaf) {
		e := &s.Entries[i]
		if e.kind != model.EntryMessage {
			continue
		}
		m := model.ContextMessage{Entry: i}
		est += float64(s.MessageTokens(m))
		if e.role != model.RoleAssistant {
			continue
		}
		if u := s.MessageHead(m).Usage; u != nil && u.Input+u.Output > 0 {
			est = u.Input + u.Output
			out = append(out, model.ContextPoint{Entry: i, Tokens: est})
		} else {
			out = append(out, model.ContextPoint{Entry: i, Tokens: est, Estimated: true})
		}
	}
	return out
}
