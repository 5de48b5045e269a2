package model

import (
	"encoding/json"
	"strings"
	"testing"

	"skein/internal/prices"
)

func price(v float64) *float64 { return &v }

// testPrices prices "known" (input 1, output 2, cache reads 0.5 and writes
// 4 per million tokens; 3 and 6 for a request over 1,000 tokens of
// context) and nothing else.
var testPrices = &prices.Table{Models: map[string]prices.Price{
	"known": {Input: 1, Output: 2, CacheRead: price(0.5), CacheWrite: price(4),
		Tiers: []prices.Tier{{Above: 1000, Input: price(3), Output: price(6)}}},
}}

// A format whose agent records no cost has each reply priced by its
// model, a request at a time (two requests under the tier stay under it
// though their tokens together are over); a model the table lacks leaves
// its tokens unpriced, with no cost; a cost an agent recorded is kept.
func TestPricedUsage(t *testing.T) {
	defer prices.Use(prices.Use(testPrices))
	st := NewStatsTally()
	for range 2 {
		d := st.Begin(1)
		st.PricedUsage(&d, "x/known", "known", UsageTotals{TokensIn: 600, TokensOut: 100, CacheRead: 200, CacheWrite: 100})
		st.End(1, d)
	}
	const day2 = 2 * 24 * 3600e3
	d := st.Begin(day2)
	st.PricedUsage(&d, "x/known", "x/known-20260101", UsageTotals{TokensIn: 1001, TokensOut: 10})
	st.PricedUsage(&d, "x/other", "other", UsageTotals{TokensIn: 50, TokensOut: 5, Cost: 9})
	st.PricedUsage(&d, "", "", UsageTotals{TokensIn: 7})
	st.End(day2, d)
	s := st.Done(nil)
	under := (600*1 + 100*2 + 200*0.5 + 100*4) / 1e6
	over := (1001*3 + 10*6) / 1e6
	if s.Cost != 2*under+over || s.Unpriced != 55+7 || !s.TableCost {
		t.Errorf("cost %v (want %v), unpriced %v, table %v", s.Cost, 2*under+over, s.Unpriced, s.TableCost)
	}
	if len(s.ByModel) != 3 || s.ByModel[0].Key != "x/known" || s.ByModel[0].Unpriced != 0 || s.ByModel[1].Cost != 0 || s.ByModel[1].Unpriced != 55 {
		t.Errorf("by model %+v", s.ByModel)
	}
	if len(s.Days) != 2 || s.Days[1].Unpriced != 62 || s.Days[0].Cost != 2*under {
		t.Errorf("days %+v", s.Days)
	}

	recorded := NewStatsTally()
	d = recorded.Begin(1)
	recorded.Usage(&d, "x/known", UsageTotals{TokensIn: 600, TokensOut: 100, Cost: 0.25})
	recorded.End(1, d)
	if r := recorded.Done(nil); r.Cost != 0.25 || r.Unpriced != 0 || r.TableCost {
		t.Errorf("a recorded cost became %v (unpriced %v, table %v)", r.Cost, r.Unpriced, r.TableCost)
	}
}

// A cost no price covers is "n/a", never $0.00; part of one is the
// dollars priced "+ n/a".
func TestCostText(t *testing.T) {
	for _, c := range []struct {
		u    UsageTotals
		want string
	}{
		{UsageTotals{}, "$0"},
		{UsageTotals{Cost: 1.5}, "$1.5"},
		{UsageTotals{TokensIn: 10, Unpriced: 10}, "n/a"},
		{UsageTotals{TokensIn: 10, Cost: 2, Unpriced: 4}, "$2 + n/a"},
	} {
		if got := CostText(c.u, plainText.Cost); got != c.want {
			t.Errorf("%+v: %q, want %q", c.u, got, c.want)
		}
	}
}

// unpricedStats is a session whose only model has no price.
func unpricedStats(path, cwd string) *SessionStats {
	ss := &SessionStats{Path: path, Format: "claude", ID: "id-" + path, Cwd: cwd}
	u := UsageTotals{TokensIn: 300, TokensOut: 30, Unpriced: 330}
	ss.Stats.ByModel = []ModelUsage{{Key: "anthropic/claude-opus-5-5", UsageTotals: u}}
	ss.Stats.AddUsage(u)
	ss.Stats.TableCost = true
	return ss
}

// A grouping says which sessions its cost covers: a row or a total with
// usage no price covers shows n/a (all of it) or "+ n/a" (part), never
// $0.00; the line under the table counts the sessions priced and names the
// models with no price; the JSON has a null cost where the table says
// n/a, the tokens left out, and the same counts in its total.
func TestUnpricedGroups(t *testing.T) {
	g := testGroups(StatsByProject)
	g.Add(unpricedStats("/s/5", "/p/x"))
	g.Add(unpricedStats("/s/6", "/p/w"))
	tb := g.Table(plainText)
	cost := len(tb.Head) - 4 // COST, ACTIVE, ERR, ABORT
	cells := map[string]string{}
	for _, r := range tb.Rows {
		cells[r[0]] = r[cost]
	}
	if cells["F/p/w"] != "n/a" || cells["F/p/x"] != "$3 + n/a" || tb.Foot[cost] != "$9 + n/a" {
		t.Errorf("cost cells %q, total %q", cells, tb.Foot[cost])
	}
	want := "cost: 4 of 6 sessions priced, 2 n/a (no price for anthropic/claude-opus-5-5); 2 from the price table (models.dev, "
	if c := g.Coverage(); !strings.HasPrefix(c, want) || !strings.HasSuffix(c, "), 3 as their agent recorded") {
		t.Errorf("coverage %q", c)
	}
	if c := testGroups(StatsByProject).Coverage(); c != "" {
		t.Errorf("coverage of costs all recorded: %q", c)
	}
	b, err := json.Marshal(g.JSON())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"userMessages":0,"assistantMessages":0,"toolCalls":0,"toolResults":0,"totalMessages":0,"tokens":{"input":300,"output":30,"cacheRead":0,"cacheWrite":0,"total":330},"cost":null,"unpricedTokens":330,`,
		`"models":[{"key":"anthropic/claude-opus-5-5","cost":null,"tokens":330,"input":300,"output":30,"cacheRead":0,"cacheWrite":0,"unpricedTokens":330}]`,
		`"cost":9,"unpricedTokens":660,`, `"unpricedSessions":2,"unpricedModels":["anthropic/claude-opus-5-5"],"pricedFromTable":2,"costRecorded":3,"priceTable":{"source":"models.dev`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no %s in\n%s", want, b)
		}
	}
	if b, _ := json.Marshal(testGroups(StatsBySession).JSON()); strings.Contains(string(b), "unpricedTokens") || !strings.Contains(string(b), `"cost":9,`) {
		t.Errorf("costs all recorded: %s", b)
	}
}

// Stats kept in the memo were priced with the table in use then: another
// table reads them as none, so that the session is priced again.
func TestStatsCodecPriceTable(t *testing.T) {
	b := unpricedStats("/s/1", "/p").AppendBinary(nil)
	if _, err := DecodeSessionStats(b); err != nil {
		t.Fatal(err)
	}
	defer prices.Use(prices.Use(testPrices))
	if _, err := DecodeSessionStats(b); err == nil {
		t.Error("stats priced with the table shipped decode under another table")
	}
}
