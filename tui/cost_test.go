package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"skein/internal/prices"
)

// A Claude Code session of a model the price table lacks (agentgen's
// claude-opus-5-5, under a table without it) costs n/a in the list's preview, the session's header
// and its stats (the total and the model's row), never $0.00; with a table
// that prices the model, each shows the table's cost.
func TestUnpricedCostIsNA(t *testing.T) {
	store := filepath.Join("..", "testdata", "agentgen", "claude", "fixtures", "parallel", "home", ".claude", "projects")
	for _, c := range []struct {
		table *prices.Table
		want  string
	}{
		{&prices.Table{Models: map[string]prices.Price{"other": {Input: 1, Output: 1}}}, "n/a"},
		// Input 4, output 20, cache reads 0.2, writes 5 a million: $0.0403.
		{&prices.Table{Models: map[string]prices.Price{"claude-opus-5-5": {Input: 4, Output: 20, CacheRead: price(0.2), CacheWrite: price(5)}}}, "$0.04"},
	} {
		old := prices.Use(c.table)
		m := loaded(t, 160, 40, true, store)
		run(m, loadPreview(m.list.selectedPath()))
		if v := plain(m); !strings.Contains(v, "cost "+c.want) || strings.Contains(v, "$0.00") {
			t.Errorf("the preview with %s:\n%s", c.want, v)
		}
		openFixture(t, m, "Write alpha")
		if v := plain(m); !strings.Contains(v, "1.9k in · 146 out · "+c.want+" · ") {
			t.Errorf("the header with %s:\n%s", c.want, v)
		}
		run(m, press(m, "S"))
		v := plain(m)
		if !strings.Contains(v, "cost      "+c.want) || !strings.Contains(v, "anthropic/claude-opus-5-5") || strings.Count(v, c.want) < 2 || strings.Contains(v, "$0.00") {
			t.Errorf("the stats with %s:\n%s", c.want, v)
		}
		prices.Use(old)
	}
}

func price(v float64) *float64 { return &v }
