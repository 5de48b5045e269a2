package claude

import (
	"skein/internal/jscan"
	"skein/model"
)

// tips counts the turns of the main conversation that no later turn of it
// follows: 1 for a conversation never rewound, one more for each rewind.
// A sub-agent is not a branch, nor is a record that hangs off the chain
// (a progress line, a file-history snapshot).
func (s *Session) tips() int {
	n := 0
	s.ends(func(k int, main bool) {
		if main {
			n++
		}
	})
	return n
}

// BranchEnds are the ends of the paths worth showing: each branch's tip,
// then each sub-agent's last entry; not the records that hang off the
// chain.
func (s *Session) BranchEnds() []int {
	var out, agents []int
	s.ends(func(k int, main bool) {
		if main {
			out = append(out, k)
		} else {
			agents = append(agents, k)
		}
	})
	return append(out, agents...)
}

// ends calls f with each tip of the main conversation (main) and each end
// of a sub-agent's, in entry order.
func (s *Session) ends(f func(k int, main bool)) {
	has := make([]bool, len(s.Entries))
	for k := range s.Entries {
		if !s.onMain(k) && !s.onAgent(k) {
			continue
		}
		for p := s.parent[k]; p >= 0 && !has[p]; p = s.parent[p] {
			has[p] = true
		}
	}
	for k := range s.Entries {
		if !has[k] && (s.onMain(k) || s.onAgent(k)) {
			f(k, s.onMain(k))
		}
	}
}

// onAgent reports whether entry k is a turn of a sub-agent's conversation.
func (s *Session) onAgent(k int) bool {
	e := &s.Entries[k]
	return e.Agent >= 0 && (e.kind == model.EntryMessage || e.kind == model.EntryCompaction)
}

// replyUsage is the usage object of a reply's last line that has one.
func (s *Session) replyUsage(k int) []byte {
	var out []byte
	for j := s.Entries[k].first; j >= 0; j = s.next[j] {
		if u := jscan.Member(s.lines[j].message(), "usage"); len(u) > 0 && u[0] == '{' {
			out = u
		}
	}
	return out
}

// Stats are the session's totals over every entry of every branch and
// every sub-agent: the messages by role, the tool calls (tool_use blocks),
// the usage of each reply (its last line's message.usage: input, output,
// cache reads and writes; Claude Code records no cost, so each reply is
// priced from the price table) by model, but not of the replies a fork
// copied from its source (the source's requests), the compactions, and
// the context's size along the path to the leaf.
func (s *Session) Stats() model.Stats {
	st := model.NewStatsTally()
	times, order := model.ByTime(len(s.Entries), func(i int) string { return s.Entries[i].Timestamp })
	st.Leaves = s.tips()
	st.Walk(times, order, func(i int, d *model.Totals) {
		e := &s.Entries[i]
		switch e.kind {
		case model.EntryCompaction:
			st.Compactions++
		case model.EntryMessage:
			d.AddMessage(e.role)
			if e.role == model.RoleAssistant {
				msg := s.MessageHead(model.ContextMessage{Entry: i})
				if msg.StopReason == "error" {
					d.Errors++
				}
				for _, c := range s.callsOf(i) {
					st.Tool(d, c.Name)
				}
				key := ""
				if msg.Model != "" && msg.Model != syntheticModel {
					key = Provider + "/" + msg.Model
					st.Model(key)
				}
				// A fork's copy of its source's reply was paid for
				// in the source (testdata/agentgen/claude, finding 8).
				if u := msg.Usage; u != nil && !s.lines[e.first].has(flagCopied) {
					if incomplete(s.replyUsage(i)) {
						st.Incomplete++
					}
					st.PricedUsage(d, key, msg.Model, model.UsageTotals{TokensIn: u.Input, TokensOut: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite})
				}
			}
		}
	})
	// The context's size along the path to the leaf: a reply's usage
	// counts its input, cache reads and writes and output.
	var conv []int
	if s.leaf >= 0 {
		conv = s.conversation(s.Path(s.leaf), s.leaf)
	}
	return st.Done(model.ContextSeries(s, conv))
}
