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
	e := CompactionEntry(nil, c, "abc")
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
		e := CompactionEntry(nil, c, "abc")
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
