package pi

import (
	"encoding/json"
	"strings"
	"testing"

	"skein/model"
)

// The compaction entry carries pi's keys in pi's order, and a model's usage
// in pi 1.6.0's full shape, cost included (pi reads usage.cost.total
// unchecked).
func TestCompactionEntry(t *testing.T) {
	c := model.Compaction{Summary: "## Goal\nx", FirstKeptEntryID: "a1b2c3d4", TokensBefore: 1234, ReadFiles: []string{"a.go"}}
	keysOf := func(e NewEntry) string {
		var keys []string
		for _, f := range e.Fields {
			if f.Value != nil {
				keys = append(keys, f.Key)
			}
		}
		return strings.Join(keys, ",")
	}
	e := CompactionEntry(c, "abc")
	if got := keysOf(e); got != "summary,firstKeptEntryId,tokensBefore,details" || *e.Parent != "abc" || e.Stamped != nil {
		t.Errorf("fields %v parent %v", got, *e.Parent)
	}
	for _, tc := range []struct {
		u         model.Usage
		total     float64
		reasoning bool
	}{
		{model.Usage{Input: 200, Output: 40}, 240, false},
		{model.Usage{Input: 200, Output: 40, CacheRead: 40, Reasoning: 10, Total: 280}, 280, true},
	} {
		c.Usage = &tc.u
		e := CompactionEntry(c, "abc")
		if got := keysOf(e); got != "summary,firstKeptEntryId,tokensBefore,details,usage" {
			t.Errorf("fields %v", got)
		}
		raw := e.Fields[4].Value
		var u struct {
			Input, Output, CacheRead, CacheWrite, TotalTokens *float64
			Reasoning                                         *float64
			Cost                                              *struct{ Input, Output, CacheRead, CacheWrite, Total *float64 }
		}
		if err := json.Unmarshal(raw, &u); err != nil || u.Input == nil || u.Output == nil || u.CacheRead == nil || u.CacheWrite == nil || u.TotalTokens == nil || u.Cost == nil || u.Cost.Total == nil || u.Cost.Input == nil {
			t.Errorf("usage %s: %v", raw, err)
			continue
		}
		if *u.Input != tc.u.Input || *u.Output != tc.u.Output || *u.CacheRead != tc.u.CacheRead || *u.TotalTokens != tc.total || (u.Reasoning != nil) != tc.reasoning {
			t.Errorf("usage %s for %+v", raw, tc.u)
		}
	}
}

// A plan's context with a system prompt gives the compaction pi 1.6.0's
// checkpoint, read from the session the plan was made on and stamped with
// the entry's own time.
func TestCompactionCheckpoint(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/x"}`,
		`{"type":"message","id":"a0000001","parentId":null,"timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"system","content":"You are pi.","timestamp":1}}`,
		`{"type":"message","id":"a0000002","parentId":"a0000001","timestamp":"2026-11-20T10:00:01.000Z","message":{"role":"user","content":"` + strings.Repeat("first question ", 40) + `","timestamp":2}}`,
		`{"type":"message","id":"a0000003","parentId":"a0000002","timestamp":"2026-11-20T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"` + strings.Repeat("an answer ", 40) + `"}],"timestamp":3}}`,
		`{"type":"message","id":"a0000004","parentId":"a0000003","timestamp":"2026-11-20T10:00:03.000Z","message":{"role":"user","content":"second question","timestamp":4}}`,
		`{"type":"message","id":"a0000005","parentId":"a0000004","timestamp":"2026-11-20T10:00:04.000Z","message":{"role":"assistant","content":[{"type":"text","text":"second answer"}],"timestamp":5}}`,
	}
	ps, err := Parse([]byte(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := ps.Domain(model.SessionInfo{})
	p := s.PlanCompaction(s.Leaf(), 10)
	if p == nil {
		t.Fatal("no plan")
	}
	e := CompactionEntry(model.Compaction{Summary: "x", FirstKeptEntryID: p.FirstKeptEntryID, Plan: p, From: s}, "a0000005")
	if e.Stamped == nil {
		t.Fatal("no system prompt checkpoint")
	}
	f := e.Stamped("2026-11-20T10:05:00.000Z")
	if len(f) != 1 || f[0].Key != "systemMessage" || !strings.Contains(string(f[0].Value), `"You are pi."`) || !strings.Contains(string(f[0].Value), `"timestamp":1795169100000`) {
		t.Errorf("checkpoint %s", f[0].Value)
	}
}
