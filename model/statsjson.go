package model

import (
	"skein/internal/jsdate"
	"skein/internal/prices"
	"skein/internal/utf8js"
)

type tokensJSON struct {
	Input      jsNumber `json:"input"`
	Output     jsNumber `json:"output"`
	CacheRead  jsNumber `json:"cacheRead"`
	CacheWrite jsNumber `json:"cacheWrite"`
	Total      jsNumber `json:"total"`
}

func tokensOf(u UsageTotals) tokensJSON {
	return tokensJSON{jsNumber(u.TokensIn), jsNumber(u.TokensOut), jsNumber(u.CacheRead), jsNumber(u.CacheWrite), jsNumber(u.Tokens())}
}

// totalsJSON are the counts and sums named as pi's getSessionStats names
// them, and skein's own after them.
type totalsJSON struct {
	UserMessages      int        `json:"userMessages"`
	AssistantMessages int        `json:"assistantMessages"`
	ToolCalls         int        `json:"toolCalls"`
	ToolResults       int        `json:"toolResults"`
	TotalMessages     int        `json:"totalMessages"`
	Tokens            tokensJSON `json:"tokens"`
	Cost              *jsNumber  `json:"cost"`
	UnpricedTokens    jsNumber   `json:"unpricedTokens,omitempty"`
	Errors            int        `json:"errors"`
	Aborts            int        `json:"aborts"`
	ActiveMs          int64      `json:"activeMs"`
}

func totalsOf(t Totals) totalsJSON {
	return totalsJSON{t.UserMessages, t.AssistantMessages, t.ToolCalls, t.ToolResults, t.Messages, tokensOf(t.UsageTotals), costOf(t.UsageTotals), jsNumber(t.Unpriced), t.Errors, t.Aborts, t.Active.Milliseconds()}
}

// costOf is a cost as JSON: null where the screens say "n/a" (usage no
// price covers, and nothing priced), else the dollars priced, which
// unpricedTokens then says are part of the cost only.
func costOf(u UsageTotals) *jsNumber {
	if u.Unpriced > 0 && u.Cost == 0 {
		return nil
	}
	c := jsNumber(u.Cost)
	return &c
}

// modelJSON is an entry of pi's getUsageCostBreakdown ({key, cost,
// tokens}), with the tokens' parts after it.
type modelJSON struct {
	Key            string    `json:"key"`
	Cost           *jsNumber `json:"cost"`
	Tokens         jsNumber  `json:"tokens"`
	Input          jsNumber  `json:"input"`
	Output         jsNumber  `json:"output"`
	CacheRead      jsNumber  `json:"cacheRead"`
	CacheWrite     jsNumber  `json:"cacheWrite"`
	UnpricedTokens jsNumber  `json:"unpricedTokens,omitempty"`
}

func modelsOf(ms []ModelUsage) []modelJSON {
	out := make([]modelJSON, len(ms))
	for i, m := range ms {
		out[i] = modelJSON{valid(m.Key), costOf(m.UsageTotals), jsNumber(m.Tokens()), jsNumber(m.TokensIn), jsNumber(m.TokensOut), jsNumber(m.CacheRead), jsNumber(m.CacheWrite), jsNumber(m.Unpriced)}
	}
	return out
}

type toolJSON struct {
	Name  string `json:"name"`
	Calls int    `json:"calls"`
}

func toolsOf(ts []ToolCount) []toolJSON {
	out := make([]toolJSON, len(ts))
	for i, t := range ts {
		out[i] = toolJSON{valid(t.Name), t.Calls}
	}
	return out
}

func isoOrNil(ms float64) *string {
	if s, ok := jsdate.ISO(ms); ok {
		return &s
	}
	return nil
}

// valid is s with each ill-formed sequence replaced by U+FFFD as Node
// replaces them (a path's bytes), where encoding/json would replace each
// byte.
func valid(s string) string { return string(utf8js.AppendValid(nil, []byte(s))) }

// JSON is what `stats --json` writes: {rows, total}, the rows in the
// table's order and the total as the table's last row has it:
//
//	total: {sessions, ...the totals, incompleteSessions}
//	       by model: {sessions, cost, tokens, input, output, cacheRead,
//	       cacheWrite, incompleteSessions}
//	       then in both: {unpricedSessions, unpricedModels,
//	       pricedFromTable, costRecorded, priceTable: {source, commit,
//	       date, file}}
//
// sessions counts each session once, however many rows it is in;
// incompleteSessions are those with a usage pi cannot add (counted as 0).
// A cost is null where the screens say "n/a" (usage of a model the price
// table does not price, and nothing priced), and unpricedTokens (left out
// when 0) counts the tokens a cost leaves out.
func (g *StatsGroups) JSON() any {
	return struct {
		Rows  []any `json:"rows"`
		Total any   `json:"total"`
	}{g.rowsJSON(), g.totalJSON()}
}

func (g *StatsGroups) totalJSON() any {
	t := g.Total()
	if g.By == StatsByModel {
		m := modelsOf([]ModelUsage{{UsageTotals: t.UsageTotals}})[0]
		return struct {
			Sessions           int       `json:"sessions"`
			Cost               *jsNumber `json:"cost"`
			Tokens             jsNumber  `json:"tokens"`
			Input              jsNumber  `json:"input"`
			Output             jsNumber  `json:"output"`
			CacheRead          jsNumber  `json:"cacheRead"`
			CacheWrite         jsNumber  `json:"cacheWrite"`
			UnpricedTokens     jsNumber  `json:"unpricedTokens,omitempty"`
			IncompleteSessions int       `json:"incompleteSessions"`
			pricingJSON
		}{g.Sessions, m.Cost, m.Tokens, m.Input, m.Output, m.CacheRead, m.CacheWrite, m.UnpricedTokens, g.Incomplete, g.pricing()}
	}
	return struct {
		Sessions int `json:"sessions"`
		totalsJSON
		IncompleteSessions int `json:"incompleteSessions"`
		pricingJSON
	}{g.Sessions, totalsOf(t), g.Incomplete, g.pricing()}
}

// pricingJSON says which sessions the total's cost covers: those with
// usage no price covers (unpricedSessions, and the models of that usage),
// those priced from the price table (pricedFromTable), those whose usage
// or cost is what their agent recorded (costRecorded), and the table.
type pricingJSON struct {
	UnpricedSessions int      `json:"unpricedSessions"`
	UnpricedModels   []string `json:"unpricedModels"`
	PricedFromTable  int      `json:"pricedFromTable"`
	CostRecorded     int      `json:"costRecorded"`
	PriceTable       struct {
		Source string  `json:"source"`
		Commit string  `json:"commit"`
		Date   string  `json:"date"`
		File   *string `json:"file"`
	} `json:"priceTable"`
}

func (g *StatsGroups) pricing() pricingJSON {
	p := pricingJSON{UnpricedSessions: g.Unpriced, PricedFromTable: g.Tabled, CostRecorded: g.Recorded, UnpricedModels: []string{}}
	for _, m := range g.UnpricedModels {
		p.UnpricedModels = append(p.UnpricedModels, valid(m))
	}
	t := prices.Current()
	p.PriceTable.Source, p.PriceTable.Commit, p.PriceTable.Date = valid(t.Source), valid(t.Commit), valid(t.Date)
	if t.Path != "" {
		f := valid(t.Path)
		p.PriceTable.File = &f
	}
	return p
}

// rowsJSON is the rows as `stats --json` writes them, in the table's order:
//
//	session: {path, format, sessionId, name, cwd, first, last, userMessages,
//	         assistantMessages, toolCalls, toolResults, totalMessages,
//	         tokens: {input, output, cacheRead, cacheWrite, total}, cost,
//	         errors, aborts, activeMs, models, tools, compactions,
//	         branchSummaries, incompleteUsage}
//	project: {cwd, sessions, last, ...the totals, models, tools}
//	model:   {key, sessions, cost, tokens, input, output, cacheRead, cacheWrite}
//	day:     {day (null: entries without a time), sessions, ...the totals}
//
// models is pi's getUsageCostBreakdown ({key, cost, tokens}, the costliest
// first) with the tokens' parts; tools are {name, calls}, most called first.
func (g *StatsGroups) rowsJSON() []any {
	type sessionJSON struct {
		Path      string  `json:"path"`
		Format    string  `json:"format"`
		SessionID string  `json:"sessionId"`
		Name      *string `json:"name"`
		Cwd       string  `json:"cwd"`
		First     *string `json:"first"`
		Last      *string `json:"last"`
		totalsJSON
		Models          []modelJSON `json:"models"`
		Tools           []toolJSON  `json:"tools"`
		Compactions     int         `json:"compactions"`
		BranchSummaries int         `json:"branchSummaries"`
		IncompleteUsage int         `json:"incompleteUsage"`
	}
	type projectJSON struct {
		Cwd      string  `json:"cwd"`
		Sessions int     `json:"sessions"`
		Last     *string `json:"last"`
		totalsJSON
		Models []modelJSON `json:"models"`
		Tools  []toolJSON  `json:"tools"`
	}
	type byModelJSON struct {
		Key      string `json:"key"`
		Sessions int    `json:"sessions"`
		modelJSON
	}
	type dayJSON struct {
		Day      *string `json:"day"`
		Sessions int     `json:"sessions"`
		totalsJSON
	}
	out := []any{}
	for _, r := range g.Sorted() {
		switch g.By {
		case StatsBySession:
			s := r.Session
			var name *string
			if s.Name != "" {
				n := valid(s.Name)
				name = &n
			}
			out = append(out, sessionJSON{valid(s.Path), s.Format, valid(s.ID), name, valid(s.Cwd), isoOrNil(s.Stats.First), isoOrNil(s.Stats.Last),
				totalsOf(r.Totals), modelsOf(r.Models), toolsOf(r.Tools), s.Stats.Compactions, s.Stats.BranchSummaries, s.Stats.Incomplete})
		case StatsByProject:
			out = append(out, projectJSON{valid(r.Key), r.Sessions, isoOrNil(r.Last), totalsOf(r.Totals), modelsOf(r.Models), toolsOf(r.Tools)})
		case StatsByModel:
			m := modelsOf([]ModelUsage{{Key: r.Key, UsageTotals: r.UsageTotals}})[0]
			out = append(out, byModelJSON{m.Key, r.Sessions, m})
		case StatsByDay:
			var day *string
			if r.Key != "" {
				day = &r.Key
			}
			out = append(out, dayJSON{day, r.Sessions, totalsOf(r.Totals)})
		}
	}
	return out
}
