package model

import (
	"math"
	"slices"
	"time"

	"skein/internal/prices"
)

// A StatsTally adds a session's entries up into Stats, one entry at a time:
// the outline every format's Stats shares (the active time between
// entries, the first and last times, the models in order of first use, the
// usage by model, the calls by tool, the days). The format walks its
// entries, says what each one is, and sets the counts only it knows
// (Leaves, Compactions, Incomplete...) on the embedded Stats.
type StatsTally struct {
	Stats
	seen    map[string]bool
	byModel map[string]int
	tools   map[string]int
	days    Days
	prev    float64
}

// NewStatsTally is a tally of no entries: First and Last NaN.
func NewStatsTally() *StatsTally {
	t := &StatsTally{seen: map[string]bool{}, byModel: map[string]int{}, tools: map[string]int{}, prev: math.NaN()}
	t.First, t.Last = math.NaN(), math.NaN()
	return t
}

// Model names a model the session used; each is listed once, in the order
// it was first named.
func (t *StatsTally) Model(name string) {
	if !t.seen[name] {
		t.seen[name] = true
		t.Models = append(t.Models, name)
	}
}

// Begin starts an entry at time ms (NaN when it has none): its totals,
// holding the active time since the last entry with a time (each gap
// capped at ActiveGapCap), which it also moves First and Last to.
func (t *StatsTally) Begin(ms float64) Totals {
	var d Totals
	if ms == ms {
		if gap := ms - t.prev; gap > 0 {
			d.Active = min(time.Duration(gap)*time.Millisecond, ActiveGapCap)
		}
		t.prev = ms
		if !(t.First <= ms) {
			t.First = ms
		}
		if !(t.Last >= ms) {
			t.Last = ms
		}
	}
	return d
}

// Tool counts a call of the tool named in the entry's totals d. The name
// must not point into the session's memory: the stats are kept.
func (t *StatsTally) Tool(d *Totals, name string) {
	d.ToolCalls++
	t.tools[name]++
}

// Usage adds usage u to the entry's totals d and to the row of model key
// in ByModel (made at its first usage, so rows keep that order).
func (t *StatsTally) Usage(d *Totals, key string, u UsageTotals) {
	d.AddUsage(u)
	k, ok := t.byModel[key]
	if !ok {
		k = len(t.ByModel)
		t.byModel[key] = k
		t.ByModel = append(t.ByModel, ModelUsage{Key: key})
	}
	t.ByModel[k].AddUsage(u)
}

// PricedUsage is Usage for an agent that records tokens but no cost: the
// usage of one reply (one request) is priced by its model, modelID as the
// agent wrote it, from the price table in use. Each request is priced by
// itself, so that a context tier applies to the requests over it. A model
// the table does not price leaves the cost unknown: its tokens count as
// Unpriced, never as a cost of $0.00.
func (t *StatsTally) PricedUsage(d *Totals, key, modelID string, u UsageTotals) {
	t.TableCost = true
	t.Usage(d, key, PriceUsage(modelID, u))
}

// PriceUsage is u with its cost from the price table in use, or its
// tokens Unpriced when the table has no price for the model.
func PriceUsage(modelID string, u UsageTotals) UsageTotals {
	u.Cost, u.Unpriced = 0, 0
	if u.Tokens() == 0 {
		return u
	}
	if p, _, ok := prices.Current().Lookup(modelID); ok && modelID != "" {
		u.Cost = p.Cost(u.TokensIn, u.TokensOut, u.CacheRead, u.CacheWrite)
	} else {
		u.Unpriced = u.Tokens()
	}
	return u
}

// End adds the totals of the entry at time ms to the session's and its
// day's.
func (t *StatsTally) End(ms float64, d Totals) {
	t.Totals.Add(d)
	t.days.Add(ms, d)
}

// Done is the stats: the models that used no tokens and cost nothing left
// out of ByModel and the rest sorted, the tools and the days made, and
// context the series along the active branch.
func (t *StatsTally) Done(context []ContextPoint) Stats {
	st := t.Stats
	st.ByModel = slices.DeleteFunc(st.ByModel, func(m ModelUsage) bool { return !(m.Cost > 0 || m.Tokens() > 0) })
	SortModels(st.ByModel)
	st.Tools = ToolCounts(t.tools)
	st.Days = t.days.Sorted()
	st.Context = context
	return st
}

// TimeOrder is the order of entries with times times (ms, NaN for none)
// by time, stable: the order a tally walks them in so that the active time
// does not depend on the order of the file. An entry with no time compares
// equal to every other.
func TimeOrder(times []float64) []int {
	order := make([]int, len(times))
	for i := range order {
		order[i] = i
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
	return order
}

// ContextSizer is what ContextSeries reads of a format's session.
type ContextSizer interface {
	Entry(i int) Entry
	Message(m ContextMessage) Message
	MessageHead(m ContextMessage) Message
}

// ContextSeries is the context's size along a conversation (its entries in
// order), for a format whose replies record the usage of the request that
// made them: after a reply whose usage says so, its input, cache reads and
// writes and output; after a compaction, an estimate of its summary;
// otherwise an estimate of the messages so far (Message.EstimateTokens).
func ContextSeries(s ContextSizer, conversation []int) []ContextPoint {
	var out []ContextPoint
	est := 0.0
	for _, i := range conversation {
		e := s.Entry(i)
		switch e.Kind {
		case EntryCompaction:
			msg := s.Message(ContextMessage{Entry: i, Kind: KindCompactionSummary})
			est = float64(msg.EstimateTokens())
			out = append(out, ContextPoint{Entry: i, Tokens: est, Estimated: true, Compaction: true})
			continue
		case EntryMessage:
		default:
			continue
		}
		m := ContextMessage{Entry: i}
		msg := s.Message(m)
		est += float64(msg.EstimateTokens())
		if e.Role != RoleAssistant {
			continue
		}
		if u := s.MessageHead(m).Usage; u != nil && u.Input+u.Output+u.CacheRead+u.CacheWrite > 0 {
			est = u.Input + u.Output + u.CacheRead + u.CacheWrite
			out = append(out, ContextPoint{Entry: i, Tokens: est})
		} else {
			out = append(out, ContextPoint{Entry: i, Tokens: est, Estimated: true})
		}
	}
	return out
}
