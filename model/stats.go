package model

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// ActiveGapCap is the longest gap between two entries that counts as
// active time: a longer one is a person away, counted as this much.
const ActiveGapCap = 5 * time.Minute

// UsageTotals are tokens and cost added up.
type UsageTotals struct {
	TokensIn, TokensOut, CacheRead, CacheWrite float64
	Cost                                       float64
	// Unpriced are the tokens of the usage no price covers: a model the
	// price table does not name, for an agent that records no cost. Their
	// cost is not known, and Cost leaves them out: it shows as "n/a", never
	// as $0.00 (CostText).
	Unpriced float64
}

// Tokens is pi's total of a usage: input, output, cache reads and writes.
func (u UsageTotals) Tokens() float64 { return u.TokensIn + u.TokensOut + u.CacheRead + u.CacheWrite }

// AddUsage adds v's tokens and cost to u.
func (u *UsageTotals) AddUsage(v UsageTotals) {
	u.TokensIn += v.TokensIn
	u.TokensOut += v.TokensOut
	u.CacheRead += v.CacheRead
	u.CacheWrite += v.CacheWrite
	u.Cost += v.Cost
	u.Unpriced += v.Unpriced
}

// CostText is a cost as the screens and tables write it: cost's text of
// the dollars, "n/a" when none of the usage could be priced, and the
// dollars "+ n/a" when only part of it was.
func CostText(u UsageTotals, cost func(float64) string) string {
	switch {
	case u.Unpriced > 0 && u.Cost == 0:
		return "n/a"
	case u.Unpriced > 0:
		return cost(u.Cost) + " + n/a"
	}
	return cost(u.Cost)
}

// Totals are what stats count and add up, the same for a session, a day of
// it, and many sessions together (a project, a day of the store).
type Totals struct {
	// Message entries on every branch, and those of each role pi counts.
	Messages, UserMessages, AssistantMessages, ToolResults int
	// ToolCalls counts what pi counts: content blocks of type "toolCall".
	ToolCalls int
	UsageTotals
	Errors, Aborts int           // assistant messages that stopped with "error", "aborted"
	Active         time.Duration // gaps between entries in file order, each at most ActiveGapCap
}

// AddMessage counts a message entry of the role: every message, and the
// user's, the assistant's and the tool results' each by itself.
func (t *Totals) AddMessage(role string) {
	t.Messages++
	switch role {
	case RoleUser:
		t.UserMessages++
	case RoleAssistant:
		t.AssistantMessages++
	case RoleToolResult:
		t.ToolResults++
	}
}

// Add adds t2 to t.
func (t *Totals) Add(t2 Totals) {
	t.Messages += t2.Messages
	t.UserMessages += t2.UserMessages
	t.AssistantMessages += t2.AssistantMessages
	t.ToolResults += t2.ToolResults
	t.ToolCalls += t2.ToolCalls
	t.AddUsage(t2.UsageTotals)
	t.Errors += t2.Errors
	t.Aborts += t2.Aborts
	t.Active += t2.Active
}

// ModelUsage is the usage of one model (Key is provider/model), or of
// the tools and summaries that record usage of their own.
type ModelUsage struct {
	Key string
	UsageTotals
}

// ToolCount is how often a tool was called.
type ToolCount struct {
	Name  string
	Calls int
}

// DayTotals are the totals of one day: Day is the local date, "2006-01-02",
// "" for entries without a time that can be read.
type DayTotals struct {
	Day string
	Totals
}

// ContextPoint is the size of the model's context at one entry of the
// active branch: after an assistant message (its usage: input, cache reads
// and writes, and output), or after a compaction (an estimate of what it
// kept).
type ContextPoint struct {
	Entry      int
	Tokens     float64
	Estimated  bool // no usage to read: an estimate of the messages
	Compaction bool
}

// Stats are a session's totals: for the preview pane, the header, the stats
// view and skein stats. The strings in them are copies, never the
// session's memory, so that a command may keep the stats of thousands of
// sessions without their files.
type Stats struct {
	Totals
	Models                               []string // provider/model, in order of first use
	Compactions, BranchSummaries, Labels int
	Leaves                               int
	Virtual                              map[string]bool // provider/model of virtual models
	// Tools are the tool calls by name, most called first: every block
	// skein shows as a tool call, whatever shape its writer gave it.
	Tools []ToolCount
	// ByModel is the usage per model as the format's agent breaks it down
	// (pi: getUsageCostBreakdown), in its order.
	ByModel []ModelUsage
	// Days are the totals by the local day of each entry, oldest first.
	Days []DayTotals
	// Context is the context's size along the active branch.
	Context []ContextPoint
	// TableCost says the cost is the price table's (PricedUsage), not one
	// the agent recorded.
	TableCost bool
	// Incomplete counts usage records with a number missing (no cost, a
	// field that is not a number): counted as 0 here, where pi's totals
	// throw or come out NaN.
	Incomplete int
	// First and Last are the times (ms) of the first and last entries
	// with a time; NaN when none has one.
	First, Last float64
}

// AddModels adds the usage of each model of src to dst's, keeping dst's
// order and appending models it does not have.
func AddModels(dst []ModelUsage, src []ModelUsage) []ModelUsage {
	for _, m := range src {
		i := slices.IndexFunc(dst, func(d ModelUsage) bool { return d.Key == m.Key })
		if i < 0 {
			dst = append(dst, ModelUsage{Key: m.Key})
			i = len(dst) - 1
		}
		dst[i].AddUsage(m.UsageTotals)
	}
	return dst
}

// SortModels orders models as pi's breakdown does: the costliest first,
// ties in the order they came.
func SortModels(ms []ModelUsage) {
	slices.SortStableFunc(ms, func(a, b ModelUsage) int { return cmp.Compare(b.Cost, a.Cost) })
}

// AddTools adds the calls of src to dst's, most called first (ties by
// name).
func AddTools(dst []ToolCount, src []ToolCount) []ToolCount {
	for _, t := range src {
		if i := slices.IndexFunc(dst, func(d ToolCount) bool { return d.Name == t.Name }); i >= 0 {
			dst[i].Calls += t.Calls
		} else {
			dst = append(dst, t)
		}
	}
	SortTools(dst)
	return dst
}

// SortTools orders tools most called first, ties by name.
func SortTools(ts []ToolCount) {
	slices.SortFunc(ts, func(a, b ToolCount) int {
		if c := cmp.Compare(b.Calls, a.Calls); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
}

// Days gathers the totals of each local day, for Stats.Days. Entries come
// mostly in time order: the day of the last one is kept with its bounds, so
// that most entries cost no date arithmetic.
type Days struct {
	list       []DayTotals
	index      map[string]int
	cur        int     // index of the day of [from, to)
	from, to   float64 // ms
	haveBounds bool
}

// Add adds d to the totals of the local day of t (ms; NaN or infinite: the
// day "", entries without a time).
func (ds *Days) Add(t float64, d Totals) {
	if ds.index == nil {
		ds.index = map[string]int{}
	}
	if !(ds.haveBounds && t >= ds.from && t < ds.to) {
		day := ""
		if t == t && !math.IsInf(t, 0) {
			lt := time.UnixMilli(int64(t)).In(time.Local)
			day = lt.Format("2006-01-02")
			start := time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, time.Local)
			ds.from, ds.to, ds.haveBounds = float64(start.UnixMilli()), float64(start.AddDate(0, 0, 1).UnixMilli()), true
		} else {
			ds.haveBounds = false
		}
		i, ok := ds.index[day]
		if !ok {
			i = len(ds.list)
			ds.index[day] = i
			ds.list = append(ds.list, DayTotals{Day: day})
		}
		ds.cur = i
	}
	ds.list[ds.cur].Add(d)
}

// Sorted is the days oldest first, the entries without a time last.
func (ds *Days) Sorted() []DayTotals {
	slices.SortFunc(ds.list, func(a, b DayTotals) int {
		if (a.Day == "") != (b.Day == "") {
			return cmp.Compare(b.Day, a.Day)
		}
		return cmp.Compare(a.Day, b.Day)
	})
	return ds.list
}

// ToolCounts are calls by tool name as Stats.Tools: most called first,
// ties by name.
func ToolCounts(calls map[string]int) []ToolCount {
	var out []ToolCount
	for name, n := range calls {
		out = append(out, ToolCount{Name: name, Calls: n})
	}
	SortTools(out)
	return out
}
