package pi

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"skein/model"
)

// statsSession is a session with every kind of usage pi adds up, a
// responseModel, an error and an abort, tool calls of three shapes, gaps
// longer and shorter than the cap, a day boundary (in UTC) and a
// compaction.
const statsSession = `{"type":"session","version":3,"id":"s1","timestamp":"2026-03-01T23:50:00.000Z","cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-03-01T23:50:00.000Z","message":{"role":"user","content":"hi","timestamp":1}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-03-01T23:51:00.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{}},{"type":"tool_use","id":"c2","name":"read","input":{}}],"provider":"anthropic","model":"m1","usage":{"input":100,"output":10,"cacheRead":1000,"cacheWrite":50,"totalTokens":1160,"cost":{"total":0.5}},"stopReason":"toolUse","timestamp":2}}
{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-03-01T23:51:01.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[],"usage":{"input":7,"output":3,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.01}},"timestamp":3}}
{"type":"usage","id":"a4","parentId":"a3","timestamp":"2026-03-02T00:30:00.000Z","kind":"cache_warm","provider":"anthropic","model":"m1","usage":{"input":0,"output":1,"cacheRead":900,"cacheWrite":0,"cost":{"total":0.02}}}
{"type":"message","id":"a5","parentId":"a4","timestamp":"2026-03-02T00:31:00.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c3","name":"bash","arguments":{}}],"provider":"anthropic","model":"m1","responseModel":"m1-fallback","usage":{"input":100,"output":20,"cacheRead":2000,"cacheWrite":0,"cost":{"total":2}},"stopReason":"error","timestamp":4}}
{"type":"compaction","id":"a6","parentId":"a5","timestamp":"2026-03-02T00:32:00.000Z","summary":"short","firstKeptEntryId":"a5","tokensBefore":2120,"usage":{"input":5,"output":5,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.1}}}
{"type":"message","id":"a7","parentId":"a6","timestamp":"2026-03-02T00:33:00.000Z","message":{"role":"assistant","content":[],"provider":"openai","model":"g","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"cost":{"total":0}},"stopReason":"aborted","timestamp":5}}
`

func TestStatsCountsAsPiDoes(t *testing.T) {
	local := time.Local
	time.Local = time.UTC
	defer func() { time.Local = local }()
	s, err := Parse([]byte(statsSession))
	if err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	want := model.Totals{Messages: 5, UserMessages: 1, AssistantMessages: 3, ToolResults: 1, ToolCalls: 2, Errors: 1, Aborts: 1,
		UsageTotals: model.UsageTotals{TokensIn: 212, TokensOut: 39, CacheRead: 3900, CacheWrite: 50, Cost: 2.63},
		// 1m, 1s, 5m (not 38m59s), 1m, 1m, 1m
		Active: 9*time.Minute + time.Second}
	if math.Abs(st.Cost-want.Cost) < 1e-9 {
		st.Cost = want.Cost
	}
	if st.Totals != want {
		t.Errorf("totals\n got %+v\nwant %+v", st.Totals, want)
	}
	// pi's breakdown: the costliest first, tool and summary usage together,
	// the model that answered (responseModel), nothing without tokens or cost.
	var got []string
	for _, m := range st.ByModel {
		got = append(got, fmt.Sprintf("%s %.2f %v", m.Key, m.Cost, m.Tokens()))
	}
	if w := []string{"anthropic/m1-fallback 2.00 2120", "anthropic/m1 0.52 2061", "Tools/summaries 0.11 20"}; strings.Join(got, "|") != strings.Join(w, "|") {
		t.Errorf("by model %q, want %q", got, w)
	}
	// Every shape of tool call by name; ToolCalls counts pi's only.
	if fmt.Sprint(st.Tools) != "[{bash 2} {read 1}]" {
		t.Errorf("tools %v", st.Tools)
	}
	if len(st.Days) != 2 || st.Days[0].Day != "2026-03-01" || st.Days[1].Day != "2026-03-02" ||
		st.Days[0].Tokens() != 1170 || st.Days[1].Tokens() != 3031 || st.Days[0].Active != time.Minute+time.Second || st.Days[1].Active != 8*time.Minute {
		t.Errorf("days %+v", st.Days)
	}
	if st.Incomplete != 0 || st.First != 1772409000000 || st.Last != 1772411580000 {
		t.Errorf("incomplete %d, first %v, last %v", st.Incomplete, st.First, st.Last)
	}
	// The context: each answer's usage, the compaction's estimate (a drop),
	// then an estimate for the aborted answer that recorded nothing.
	c := st.Context
	if len(c) != 4 || c[0].Tokens != 1160 || c[1].Tokens != 2120 || !c[2].Compaction || c[2].Tokens >= c[1].Tokens || !c[3].Estimated || c[3].Tokens < c[2].Tokens {
		t.Errorf("context %+v", c)
	}
}

// Days are local days: the same entries in Kiritimati (UTC+14) fall on
// one day.
func TestStatsDaysAreLocal(t *testing.T) {
	loc, err := time.LoadLocation("Pacific/Kiritimati")
	if err != nil {
		t.Skip(err)
	}
	local := time.Local
	time.Local = loc
	defer func() { time.Local = local }()
	s, _ := Parse([]byte(statsSession))
	if d := s.Stats().Days; len(d) != 1 || d[0].Day != "2026-03-02" {
		t.Errorf("days %+v", d)
	}
}

// A usage pi cannot add (none on an assistant message or a usage entry, no
// cost, a field not a number) is counted as far as it goes and marked, where
// pi's getSessionStats throws or comes out NaN.
func TestStatsIncompleteUsage(t *testing.T) {
	for _, line := range []string{
		`{"type":"usage","id":"b1","parentId":null,"timestamp":"2026-03-01T00:00:00.000Z","provider":"p","model":"m"}`,
		`{"type":"usage","id":"b1","parentId":null,"timestamp":"2026-03-01T00:00:00.000Z","provider":"p","model":"m","usage":{"input":10,"output":1,"cacheRead":0,"cacheWrite":0}}`,
		`{"type":"message","id":"b1","parentId":null,"timestamp":"2026-03-01T00:00:00.000Z","message":{"role":"assistant","content":[],"provider":"p","model":"m","stopReason":"stop"}}`,
		`{"type":"message","id":"b1","parentId":null,"timestamp":"2026-03-01T00:00:00.000Z","message":{"role":"assistant","content":[],"provider":"p","model":"m","usage":{"input":"10","output":1,"cacheRead":0,"cacheWrite":0,"cost":{"total":1}},"stopReason":"stop"}}`,
		`{"type":"compaction","id":"b1","parentId":null,"timestamp":"2026-03-01T00:00:00.000Z","summary":"s","firstKeptEntryId":"b1","tokensBefore":0,"usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"cost":{}}}`,
	} {
		s, err := Parse([]byte(`{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T00:00:00.000Z","cwd":"/w"}` + "\n" + line + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		if st := s.Stats(); st.Incomplete != 1 || st.Cost != st.Cost {
			t.Errorf("%s: incomplete %d, cost %v", line, st.Incomplete, st.Cost)
		}
	}
}

// The breakdown's keys are pi's template strings: a missing provider is
// "undefined", a null responseModel falls back to the model.
func TestStatsModelKeys(t *testing.T) {
	s, _ := Parse([]byte(`{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"b1","parentId":null,"timestamp":"2026-03-01T00:00:00.000Z","message":{"role":"assistant","content":[],"model":"m","responseModel":null,"usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"cost":{"total":0}},"stopReason":"stop"}}
`))
	if b := s.Stats().ByModel; len(b) != 1 || b[0].Key != "undefined/m" {
		t.Errorf("by model %+v", b)
	}
}
