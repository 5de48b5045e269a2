package dhara05

import (
	"skein/internal/jscan"
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
	times, order := model.ByTime(len(s.Entries), func(i int) string { return s.Entries[i].Timestamp })
	st.Leaves = s.Tips()
	st.Walk(times, order, func(i int, d *model.Totals) {
		e := &s.Entries[i]
		if _, ok := s.Label(i); ok {
			st.Labels++
		}
		if e.isCounted() {
			d.AddMessage(e.role)
			if e.role == model.RoleAssistant {
				msg := s.Message(model.ContextMessage{Entry: i})
				key := addModel(msg.Provider, msg.Model)
				for _, c := range msg.ToolCalls() {
					st.Tool(d, c.Name)
				}
				if u := msg.Usage; u != nil {
					if incomplete(jscan.Member(e.Raw, "metadata")) {
						st.Incomplete++
					}
					st.Usage(d, key, model.UsageTotals{TokensIn: u.Input, TokensOut: u.Output, Cost: u.Cost})
				}
			}
		}
	})
	// The context's size along the path to the leaf: an assistant's
	// tokenCount counts its input and output.
	return st.Done(model.ContextSeries(s, s.Path(s.leaf)))
}
