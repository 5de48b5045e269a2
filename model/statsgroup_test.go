package model

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// statsOf is a session's stats with the usage of each model, spread over
// the days named.
func statsOf(path, cwd string, last float64, models map[string]float64, days ...string) *SessionStats {
	ss := &SessionStats{Path: path, Format: "pi", ID: "id-" + path, Cwd: cwd, Title: "t " + path}
	st := &ss.Stats
	st.First, st.Last = last, last
	for _, key := range []string{"a/cheap", "b/dear"} {
		if cost, ok := models[key]; ok {
			u := UsageTotals{TokensIn: 100 * cost, TokensOut: 10, Cost: cost}
			st.ByModel = append(st.ByModel, ModelUsage{Key: key, UsageTotals: u})
			st.AddUsage(u)
			st.AssistantMessages++
			st.Messages++
		}
	}
	st.Tools = []ToolCount{{"bash", 2}}
	for i, d := range days {
		t := Totals{Messages: 1}
		if i == 0 {
			t = st.Totals // the first day holds the usage
		}
		st.Days = append(st.Days, DayTotals{Day: d, Totals: t})
	}
	return ss
}

func testGroups(by StatsBy) *StatsGroups {
	g := NewStatsGroups(by)
	g.Add(statsOf("/s/1", "/p/x", 1000, map[string]float64{"a/cheap": 1}, "2026-03-02"))
	g.Add(statsOf("/s/2", "/p/y", 3000, map[string]float64{"a/cheap": 1, "b/dear": 5}, "2026-03-01", ""))
	g.Add(statsOf("/s/3", "/p/x", 2000, map[string]float64{"b/dear": 2}, "2026-03-02"))
	g.Add(statsOf("/s/4", "/p/z", math.NaN(), nil, ""))
	return g
}

// Each grouping's rows, in the table's order: sessions newest first (no
// time last), projects and models costliest first, days oldest first
// (entries without a time last); a project keeps its latest session's
// time and adds its models and tools; a row counts each session once.
func TestStatsGroupsRows(t *testing.T) {
	cases := []struct {
		by   StatsBy
		want string // key sessions cost, a row each
	}{
		{StatsBySession, "/s/2 1 6|/s/3 1 2|/s/1 1 1|/s/4 1 0"},
		{StatsByProject, "/p/y 1 6|/p/x 2 3|/p/z 1 0"},
		{StatsByModel, "b/dear 2 7|a/cheap 2 2"},
		{StatsByDay, "2026-03-01 1 6|2026-03-02 2 3| 2 0"},
	}
	for _, c := range cases {
		g := testGroups(c.by)
		var got []string
		for _, r := range g.Sorted() {
			got = append(got, fmt.Sprintf("%s %d %g", r.Key, r.Sessions, r.Cost))
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("by %s: %s, want %s", c.by, strings.Join(got, "|"), c.want)
		}
		if g.Sessions != 4 {
			t.Errorf("by %s: %d sessions", c.by, g.Sessions)
		}
	}
	for _, r := range testGroups(StatsByProject).Sorted() {
		if r.Key == "/p/x" && (r.Last != 2000 || len(r.Models) != 2 || r.Models[0].Key != "b/dear" || r.Tools[0].Calls != 4) {
			t.Errorf("project /p/x: last %v, models %+v, tools %+v", r.Last, r.Models, r.Tools)
		}
	}
}

var plainText = StatsText{
	Tokens: func(n float64) string { return fmt.Sprint(n) },
	Cost:   func(c float64) string { return fmt.Sprintf("$%g", c) },
	Active: func(d time.Duration) string { return d.String() },
	Time:   func(ms float64) string { return fmt.Sprint(ms) },
	Folder: func(cwd string) string { return "F" + cwd },
	Text:   func(s string, w int) string { return fmt.Sprintf("%s/%d", s, w) },
}

// The table: a heading a column, a row a group, and the total, in which a
// session is counted once however many rows it has; each grouping's
// columns.
func TestStatsTable(t *testing.T) {
	tb := testGroups(StatsByModel).Table(plainText)
	if strings.Join(tb.Head, ",") != "MODEL,SESSIONS,IN,OUT,CACHE R,CACHE W,COST" {
		t.Errorf("model head %q", tb.Head)
	}
	if strings.Join(tb.Rows[0], ",") != "b/dear/40,2,700,20,0,0,$7" || strings.Join(tb.Foot, ",") != "total,4,900,40,0,0,$9" {
		t.Errorf("model rows %q, foot %q", tb.Rows, tb.Foot)
	}
	tb = testGroups(StatsBySession).Table(plainText)
	if len(tb.Head) != 14 || tb.Head[13] != "TITLE" || tb.Right[13] || !tb.Right[3] {
		t.Errorf("session head %q %v", tb.Head, tb.Right)
	}
	if r := tb.Rows[0]; r[0] != "id-/s/2" || r[1] != "3000" || r[2] != "F/p/y" || r[13] != "t /s/2" {
		t.Errorf("session row %q", r)
	}
	if f := tb.Foot; f[1] != "4 sessions" || f[3] != "4" || f[9] != "$9" || f[13] != "" {
		t.Errorf("session foot %q", f)
	}
	one := NewStatsGroups(StatsBySession)
	one.Add(statsOf("/s/1", "/p/x", 1000, nil))
	if f := one.Table(plainText).Foot; f[1] != "1 session" {
		t.Errorf("one session's foot %q", f)
	}
	tb = testGroups(StatsByDay).Table(plainText)
	if r := tb.Rows[len(tb.Rows)-1]; r[0] != "(no time)" || len(r) != len(tb.Head) {
		t.Errorf("day row %q", r)
	}
}

// The JSON rows: pi's names, a number that is not finite as null, a day
// without a time as null, a session's name only when it has one.
func TestStatsJSON(t *testing.T) {
	g := NewStatsGroups(StatsBySession)
	ss := statsOf("/s/\xff", "/p/x", math.NaN(), map[string]float64{"a/cheap": math.NaN()})
	g.Add(ss)
	b, err := json.Marshal(g.JSON())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\"path\":\"/s/\ufffd\"", `"name":null`, `"last":null`, `"cost":null`, `"tokens":{"input":null`, `"tools":[{"name":"bash","calls":2}]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no %s in %s", want, b)
		}
	}
	b, _ = json.Marshal(testGroups(StatsByDay).JSON())
	if !strings.HasPrefix(string(b), `{"rows":[{"day":"2026-03-01","sessions":1,"userMessages":0`) || !strings.Contains(string(b), `{"day":null,"sessions":2`) {
		t.Errorf("days %s", b)
	}
}

// stats --json's total is the table's last row: the sessions counted
// once, and what the rows add up to, in every grouping.
func TestStatsJSONTotal(t *testing.T) {
	for _, by := range StatsGroupings {
		g := testGroups(by)
		b, err := json.Marshal(g.JSON())
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Rows  []json.RawMessage
			Total struct {
				Sessions, TotalMessages, IncompleteSessions int
				Cost, Input, Output                         float64
				Tokens                                      json.RawMessage
			}
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", by, err)
		}
		tot := doc.Total
		if by != StatsByModel {
			var tok struct{ Input, Output float64 }
			json.Unmarshal(tot.Tokens, &tok)
			tot.Input, tot.Output = tok.Input, tok.Output
		}
		foot := g.Table(plainText).Foot
		got := []string{fmt.Sprint(tot.Sessions), plainText.Tokens(tot.Input), plainText.Tokens(tot.Output), plainText.Cost(tot.Cost)}
		want := []string{strings.TrimSuffix(foot[1], " sessions"), foot[len(foot)-5], foot[len(foot)-4], foot[len(foot)-1]}
		if by != StatsByModel {
			n := len(foot) - 1
			if by == StatsBySession {
				n-- // the title's empty cell
			}
			want = []string{strings.TrimSuffix(foot[1], " sessions"), foot[n-7], foot[n-6], foot[n-3]}
			if fmt.Sprint(tot.TotalMessages) != foot[n-9] {
				t.Errorf("%s: %d messages, the table's %q", by, tot.TotalMessages, foot)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) || len(doc.Rows) == 0 || tot.Sessions != 4 {
			t.Errorf("%s: the JSON's total %v, the table's %v (%q)", by, got, want, foot)
		}
	}
}

// A Windows folder is one project whatever the case of its letters and
// its slashes (c:\src\IDAHO and C:/src/idaho); a POSIX folder's case
// counts.
func TestProjectsCompareAsTheirFileSystem(t *testing.T) {
	g := NewStatsGroups(StatsByProject)
	g.Add(statsOf("/s/1", `c:\src\IDAHO`, 1000, map[string]float64{"a/cheap": 1}))
	g.Add(statsOf("/s/2", `C:/src/idaho`, 2000, map[string]float64{"a/cheap": 1}))
	g.Add(statsOf("/s/3", "/home/a/Idaho", 3000, map[string]float64{"a/cheap": 1}))
	g.Add(statsOf("/s/4", "/home/a/idaho", 4000, map[string]float64{"a/cheap": 1}))
	rows := g.Sorted()
	if len(rows) != 3 {
		t.Fatalf("%d projects, want 3", len(rows))
	}
	for _, r := range rows {
		if strings.HasPrefix(strings.ToLower(r.Key), `c:`) && (r.Sessions != 2 || r.Key != `c:\src\IDAHO`) {
			t.Errorf("the Windows project: %q, %d sessions", r.Key, r.Sessions)
		}
	}
}
