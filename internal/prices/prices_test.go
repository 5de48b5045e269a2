package prices

import (
	"strings"
	"testing"
)

// TestEmbedded checks the table shipped in the binary: where it comes from
// is said, it is small, and it prices the models the agents name most.
func TestEmbedded(t *testing.T) {
	tb := Embedded()
	if !strings.Contains(tb.Source, "models.dev") || !strings.Contains(tb.Source, "MIT") || len(tb.Commit) != 40 || len(tb.Date) != len("2006-01-02") {
		t.Errorf("source %q commit %q date %q", tb.Source, tb.Commit, tb.Date)
	}
	if len(embedded) > 64<<10 {
		t.Errorf("prices.json is %d bytes: keep it to tens of KB", len(embedded))
	}
	for _, id := range []string{"claude-sonnet-4-6", "claude-opus-4-5", "claude-haiku-4-5", "gpt-5.1-codex", "gpt-5", "gemini-2.5-pro", "grok-4.3", "deepseek-chat"} {
		p, _, ok := tb.Lookup(id)
		if !ok || p.Input <= 0 || p.Output <= 0 {
			t.Errorf("%s: %+v %v", id, p, ok)
		}
	}
	if Current() != embeddedTable() {
		t.Error("the table in use is not the embedded one")
	}
}

func f(v float64) *float64 { return &v }

var test = &Table{Models: map[string]Price{
	"claude-sonnet-4-5":  {Input: 3, Output: 15, CacheRead: f(0.3), CacheWrite: f(3.75)},
	"claude-opus-4-5":    {Input: 5, Output: 25},
	"gpt-4o-2024-08-06":  {Input: 2.5, Output: 10},
	"gemini-2.5-pro":     {Input: 1.25, Output: 10, CacheRead: f(0.125), Tiers: []Tier{{Above: 200000, Input: f(2.5), Output: f(15)}}},
	"kimi-k2":            {Input: 1, Output: 2},
	"claude-3-5-sonnet":  {Input: 3, Output: 15},
	"gpt-5-1-codex-fake": {Input: 9, Output: 9},
}}

// TestLookup is the rule a model id is matched by: as written, then
// without a provider's prefix, Bedrock's prefix and suffix, and a date.
func TestLookup(t *testing.T) {
	for _, c := range []struct{ id, want string }{
		{"claude-sonnet-4-5", "claude-sonnet-4-5"},
		{"claude-sonnet-4-5-20250929", "claude-sonnet-4-5"},
		{"anthropic/claude-sonnet-4-5", "claude-sonnet-4-5"},
		{"openrouter/anthropic/claude-opus-4-5-20251101", "claude-opus-4-5"},
		{"us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5"},
		{"anthropic.claude-opus-4-5-20251101-v1:0", "claude-opus-4-5"},
		{"claude-3-5-sonnet@20240620", "claude-3-5-sonnet"},
		{"gpt-4o-2024-08-06", "gpt-4o-2024-08-06"},
		{"moonshotai/kimi-k2", "kimi-k2"},
		// Nothing else is guessed.
		{"gpt-4o", ""},
		{"claude-opus-5-5", ""},
		{"claude-sonnet-4-5-fast", ""},
		{"gpt-5-1-codex-2025-11-13", ""},
		{"", ""},
	} {
		_, got, ok := test.Lookup(c.id)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Lookup(%q) = %q %v, want %q", c.id, got, ok, c.want)
		}
	}
}

// TestCost prices one request: per million tokens, cache reads and writes
// at their own prices (at the input's where the table gives none), and the
// whole request at a tier's prices when its context is over the tier.
func TestCost(t *testing.T) {
	for _, c := range []struct {
		id              string
		in, out, cr, cw float64
		want            float64
		why             string
	}{
		{"claude-sonnet-4-5", 1000, 100, 10000, 2000, (1000*3 + 100*15 + 10000*0.3 + 2000*3.75) / 1e6, ""},
		{"claude-opus-4-5", 1000, 100, 10000, 2000, (1000*5 + 100*25 + 10000*5 + 2000*5) / 1e6, "no cache prices: input's"},
		{"gemini-2.5-pro", 100000, 1000, 100000, 0, (100000*1.25 + 1000*10 + 100000*0.125) / 1e6, "200,000: not over"},
		{"gemini-2.5-pro", 100001, 1000, 100000, 0, (100001*2.5 + 1000*15 + 100000*0.125) / 1e6, "over: the tier's input and output, the model's cache read"},
	} {
		p, _, _ := test.Lookup(c.id)
		if got := p.Cost(c.in, c.out, c.cr, c.cw); got != c.want {
			t.Errorf("%s %v: %v, want %v (%s)", c.id, []float64{c.in, c.out, c.cr, c.cw}, got, c.want, c.why)
		}
	}
}

// TestParse reads a replacement table and refuses one that cannot price.
func TestParse(t *testing.T) {
	tb, err := Parse([]byte(`{"source": "mine", "models": {"m": {"input": 1, "output": 2, "cacheRead": 0.1}}}`))
	if err != nil || tb.Models["m"].Input != 1 || *tb.Models["m"].CacheRead != 0.1 || tb.Models["m"].CacheWrite != nil || tb.Hash() == Embedded().Hash() {
		t.Fatalf("%+v %v", tb, err)
	}
	for _, bad := range []string{`{}`, `{"models": {}}`, `[1]`, `{"models": {"m": {"input": -1, "output": 1}}}`,
		`{"models": {"m": {"input": 1, "output": 1, "tiers": [{"above": 5}, {"above": 2}]}}}`} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	old := Use(tb)
	if Current() != tb || old != embeddedTable() {
		t.Error("Use")
	}
	Use(nil)
	if Current() != embeddedTable() {
		t.Error("Use(nil) is not the embedded table")
	}
}
