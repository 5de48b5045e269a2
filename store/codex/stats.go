package codex

import (
	"cmp"
	"math"
	"slices"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
)

// tokens is a TokenUsage's numbers (protocol.rs TokenUsage), and which
// of input, cached input, output and total it has.
type tokens struct {
	in, cached, out, reasoning, total float64
	ok                                [4]bool
}

func (t tokens) complete() bool { return t.ok[0] && t.ok[1] && t.ok[2] && t.ok[3] }

// tokensOf reads a TokenUsage in one pass.
func tokensOf(u []byte) tokens {
	var t tokens
	if len(u) == 0 || u[0] != '{' {
		return t
	}
	it := jscan.Walk(u)
	for k, ok := it.Next(); ok; k, ok = it.Next() {
		switch jscan.Key(k) {
		case "input_tokens":
			t.in, t.ok[0] = number(it.Value())
		case "cached_input_tokens":
			t.cached, t.ok[1] = number(it.Value())
		case "output_tokens":
			t.out, t.ok[2] = number(it.Value())
		case "reasoning_output_tokens":
			t.reasoning, _ = number(it.Value())
		case "total_tokens":
			t.total, t.ok[3] = number(it.Value())
		}
	}
	return t
}

// usage is a TokenUsage as a message's: input_tokens counts the cached
// ones, which skein counts apart as cache reads.
func (t tokens) usage() *model.Usage {
	return &model.Usage{Input: max(t.in-t.cached, 0), CacheRead: t.cached, Output: t.out, Reasoning: t.reasoning, Total: t.total}
}

// Stats are the session's totals over every entry of every branch: the
// message entries by role, the calls by tool, and the usage, to the model
// of the turn context in force (session_meta's provider/that model).
// Codex 0.171.0 writes a token_usage_record for each completed response:
// its usage is what the model reported, and the stats add those up. Older
// files have only token_count events, each the session's running total
// (total_token_usage), repeated unchanged after a tool's output: each
// count adds what its total grew by (a total that fell, as a new process
// starts from zero, adds itself). The records are preferred because a
// fork's running totals start at its source's: adding them up would count
// the source's usage again in the fork.
func (s *Session) Stats() model.Stats {
	st := model.NewStatsTally()
	for i := range s.Entries {
		if s.Entries[i].Type == TypeTurnContext {
			st.Model(s.modelKey(s.tcModel[int32(i)]))
		}
	}
	st.Leaves = s.Tips()
	var last tokens
	for i := range s.Entries {
		e := &s.Entries[i]
		t := jsdate.Parse(e.Timestamp)
		d := st.Begin(t)
		switch {
		case e.kind == model.EntryMessage:
			if e.role == model.RoleUser && s.injected(i) {
				d.AddMessage("") // a message, not one of the user's
			} else {
				d.AddMessage(e.role)
			}
			if e.Type == TypeEventMsg {
				d.Errors++ // a failed turn's error (isFailure)
			}
			if e.role == model.RoleAssistant && isCall(e.ItemType) {
				st.Tool(&d, toolName(ritem{raw: e.Payload, itemType: e.ItemType}))
			}
		case e.kind == model.EntryCompaction:
			st.Compactions++
		case e.kind == model.EntryUsage && e.Type == TypeTokenUsageRecord:
			u := tokensOf(jscan.ObjectMember(e.Payload, "usage"))
			if !u.complete() {
				st.Incomplete++
			}
			s.addUsage(st, &d, i, tokens{in: u.in, cached: u.cached, out: u.out})
		case e.kind == model.EntryUsage && !s.records:
			c, ok := s.countAt(i)
			if !ok || !c.info {
				break
			}
			cur := c.total
			if !cur.complete() {
				st.Incomplete++
			}
			var delta tokens
			switch {
			case cur.total > last.total:
				delta = tokens{in: cur.in - last.in, cached: cur.cached - last.cached, out: cur.out - last.out}
			case cur.total < last.total:
				delta = cur
			}
			last = cur
			s.addUsage(st, &d, i, delta)
		}
		st.End(t, d)
	}
	// Done leaves out no model here: a row is made only for tokens.
	return st.Done(s.contextSeries())
}

// addUsage adds tokens t to the stats, for the model of the turn context
// in force at entry i. Input tokens count the cached ones, which are cache
// reads here.
func (s *Session) addUsage(st *model.StatsTally, d *model.Totals, i int, t tokens) {
	ut := model.UsageTotals{TokensIn: max(t.in-t.cached, 0), CacheRead: max(t.cached, 0), TokensOut: max(t.out, 0)}
	if ut.Tokens() == 0 {
		return
	}
	m := ""
	if tc := s.inForce[i]; tc >= 0 {
		m = s.tcModel[tc]
	}
	st.PricedUsage(d, s.modelKey(m), m, ut) // Codex records no cost
}

// modelKey is a model's provider/model, the session's provider.
func (s *Session) modelKey(m string) string { return model.ModelKey(s.Meta.ModelProvider, m) }

func isCall(itemType string) bool {
	switch itemType {
	case "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "tool_search_call":
		return true
	}
	return false
}

// contextSeries is the context's size along the path to the leaf: at each
// token count whose last request's total changed, that total; at a
// compaction, an estimate of what it keeps.
func (s *Session) contextSeries() []model.ContextPoint {
	if s.leaf < 0 {
		return nil
	}
	var out []model.ContextPoint
	var run []elem
	lastTotal := math.NaN()
	for _, i := range s.Path(s.leaf) {
		run = s.apply(run, int32(i), true)
		e := &s.Entries[i]
		switch e.kind {
		case model.EntryUsage:
			c, ok := s.countAt(i)
			if !ok {
				break
			}
			if u := c.last; u.total > 0 && u.total != lastTotal {
				lastTotal = u.total
				out = append(out, model.ContextPoint{Entry: i, Tokens: u.total})
			}
		case model.EntryCompaction:
			est := 0
			for _, m := range run {
				msg := s.Message(m.ContextMessage)
				est += msg.EstimateTokens()
			}
			out = append(out, model.ContextPoint{Entry: i, Tokens: float64(est), Estimated: true, Compaction: true})
		}
	}
	return out
}

// count is a token_count event (TokenCountEvent: info, a TokenUsageInfo
// or null): its session totals and its last request's usage.
type count struct {
	entry       int32
	info        bool // info is an object
	total, last tokens
}

// parseCount reads a token_count payload in one pass over each object.
func parseCount(entry int32, p []byte) count {
	c := count{entry: entry}
	info := field(p, "info")
	if len(info) == 0 || info[0] != '{' {
		return c
	}
	c.info = true
	it := jscan.Walk(info)
	for k, ok := it.Next(); ok; k, ok = it.Next() {
		switch jscan.Key(k) {
		case "total_token_usage":
			c.total = tokensOf(it.Value())
		case "last_token_usage":
			c.last = tokensOf(it.Value())
		}
	}
	return c
}

// field is the first member named key of the valid object obj, found
// without measuring the values after it.
func field(obj []byte, key string) []byte {
	it := jscan.Walk(obj)
	for k, ok := it.Next(); ok; k, ok = it.Next() {
		if jscan.KeyIs(k, key) {
			return it.Value()
		}
	}
	return nil
}

// countAt is entry i's token count.
func (s *Session) countAt(i int) (*count, bool) {
	k, ok := slices.BinarySearchFunc(s.counts, int32(i), func(c count, e int32) int { return cmp.Compare(c.entry, e) })
	if !ok {
		return nil, false
	}
	return &s.counts[k], true
}
