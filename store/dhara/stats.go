package dhara

import (
	"cmp"
	"slices"
	"strings"

	"skein/internal/jscan"

	"skein/internal/jsdate"
	"skein/model"
)

// Stats are the session's totals over every entry of every branch: message
// and call counts, the models (meta.json's, model changes', assistant
// messages'), usage where an entry carries it, and the context's size
// along the active branch.
func (s *Session) Stats() model.Stats {
	st := model.NewStatsTally()
	addModel := func(provider, m string) {
		if m != "" {
			st.Model(provider + "/" + m)
		}
	}
	addModel(s.Meta.Provider, s.Meta.Model)
	// In time order: the archive's lines come first in the file order, and
	// a session's active time must not depend on what was archived.
	order := make([]int, len(s.Entries))
	times := make([]float64, len(s.Entries))
	for i := range order {
		order[i], times[i] = i, jsdate.Parse(s.Entries[i].Timestamp)
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ta, tb := times[a], times[b]
		if ta != ta || tb != tb { // no time: last
			return b2i(ta != ta) - b2i(tb != tb)
		}
		return cmp.Compare(ta, tb)
	})
	st.Leaves = s.Tips()
	st.Walk(times, order, func(i int, d *model.Totals) {
		e := &s.Entries[i]
		switch e.Type {
		case TypeMessage, TypeToolResult:
			if Synthetic(e) {
				break
			}
			d.AddMessage(e.Role)
			if e.Role == model.RoleAssistant {
				msg := s.MessageHead(model.ContextMessage{Entry: i})
				addModel(msg.Provider, msg.Model)
				switch msg.StopReason {
				case "error":
					d.Errors++
				case "aborted":
					d.Aborts++
				}
				if u := msg.Usage; u != nil {
					st.Usage(d, msg.Provider+"/"+msg.Model, model.UsageTotals{TokensIn: u.Input, TokensOut: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite, Cost: u.Cost})
				}
			}
		case TypeToolCall:
			st.Tool(d, strings.Clone(e.ToolName)) // not the file's memory: stats are kept
		case TypeModelChange:
			dt := s.Detail(i)
			addModel(dt.Provider, dt.Model)
		case TypeCompaction:
			st.Compactions++
		}
	})
	st.Labels = len(s.labels)
	if len(s.Tree.Branches) > 0 {
		st.Leaves = len(s.Tree.Branches) // a fork with no entries of its own is a branch too
	}
	return st.Done(s.contextSeries())
}

// contextSeries is the context's size along the active branch: after each
// assistant message with usage, its tokens; otherwise the estimate of what
// the context holds there; after a compaction, the estimate of what it
// kept. One walk: each message estimated once, a compaction taking its
// range's estimates away.
func (s *Session) contextSeries() []model.ContextPoint {
	if s.leaf < 0 {
		return nil
	}
	var out []model.ContextPoint
	path := s.Path(s.leaf)
	tokens := make(map[string]float64, len(path)) // the visible messages' estimates
	visible, est := 0.0, 0.0
	summary := 0.0 // the newest summary's estimate
	for _, i := range path {
		e := &s.Entries[i]
		switch {
		case e.Type == TypeCompaction:
			preserved := map[string]bool{}
			for _, id := range stringList(jscan.Member(e.Raw, "preservedEntryIds")) {
				preserved[id] = true
			}
			for _, id := range stringList(jscan.Member(e.Raw, "entryIds")) {
				if t, ok := tokens[id]; ok && !preserved[id] {
					visible -= t
					delete(tokens, id)
				}
			}
			summary = float64(s.MessageTokens(model.ContextMessage{Entry: i, Kind: model.KindCompactionSummary}))
			est = visible + summary
			out = append(out, model.ContextPoint{Entry: i, Tokens: est, Estimated: true, Compaction: true})
		case e.kind == model.EntryMessage:
			m := model.ContextMessage{Entry: i}
			t := float64(s.MessageTokens(m))
			if e.ID != "" {
				tokens[e.ID] += t
			}
			visible += t
			est += t
			if e.Role == model.RoleAssistant && e.Type == TypeMessage {
				if u := s.MessageHead(m).Usage; u != nil && u.Input+u.Output+u.CacheRead+u.CacheWrite > 0 {
					est = u.Input + u.Output + u.CacheRead + u.CacheWrite
					out = append(out, model.ContextPoint{Entry: i, Tokens: est})
				} else {
					est = visible + summary
					out = append(out, model.ContextPoint{Entry: i, Tokens: est, Estimated: true})
				}
			}
		}
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
