package dhara05

import (
	"math"
	"slices"
	"time"

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
	var st model.Stats
	st.First, st.Last = math.NaN(), math.NaN()
	seen := map[string]bool{}
	addModel := func(provider, m string) string {
		if m == "" && provider == "" {
			return ""
		}
		name := provider + "/" + m
		if !seen[name] {
			seen[name] = true
			st.Models = append(st.Models, name)
		}
		return name
	}
	addModel(s.Meta.Provider, s.Meta.ModelID)
	byModel := map[string]int{}
	tools := map[string]int{}
	var days model.Days
	prev := math.NaN()
	order := make([]int, len(s.Entries))
	times := make([]float64, len(s.Entries))
	for i := range order {
		order[i], times[i] = i, jsdate.Parse(s.Entries[i].Timestamp)
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ta, tb := times[a], times[b]
		switch {
		case ta != ta || tb != tb:
			return 0
		case ta < tb:
			return -1
		case ta > tb:
			return 1
		}
		return 0
	})
	for _, i := range order {
		e := &s.Entries[i]
		if len(s.Children(i)) == 0 {
			st.Leaves++
		}
		if _, ok := s.Label(i); ok {
			st.Labels++
		}
		var d model.Totals
		t := times[i]
		if t == t {
			if gap := t - prev; gap > 0 {
				d.Active = min(time.Duration(gap)*time.Millisecond, model.ActiveGapCap)
			}
			prev = t
			if !(st.First <= t) {
				st.First = t
			}
			if !(st.Last >= t) {
				st.Last = t
			}
		}
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
					d.ToolCalls++
					tools[c.Name]++
				}
				if u := msg.Usage; u != nil {
					if incomplete(jscan.Member(e.Raw, "metadata")) {
						st.Incomplete++
					}
					ut := model.UsageTotals{TokensIn: u.Input, TokensOut: u.Output, Cost: u.Cost}
					d.AddUsage(ut)
					k, ok := byModel[key]
					if !ok {
						k = len(st.ByModel)
						byModel[key] = k
						st.ByModel = append(st.ByModel, model.ModelUsage{Key: key})
					}
					st.ByModel[k].AddUsage(ut)
				}
			case model.RoleToolResult:
				d.ToolResults++
			}
		}
		st.Totals.Add(d)
		days.Add(t, d)
	}
	st.ByModel = slices.DeleteFunc(st.ByModel, func(m model.ModelUsage) bool { return !(m.Cost > 0 || m.Tokens() > 0) })
	model.SortModels(st.ByModel)
	st.Tools = model.ToolCounts(tools)
	st.Days = days.Sorted()
	st.Context = s.contextSeries()
	return st
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
	for _, i := range s.path(s.leaf) {
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
