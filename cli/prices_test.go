package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type costRow struct {
	Path, Format string
	Tokens       struct{ Total float64 }
	Cost         *float64
	Models       []struct{ Key string }
}

// statsCosts is each session's row of stats --json over dir.
func statsCosts(t *testing.T, home, dir string) map[string]costRow {
	t.Helper()
	out, stderr, code := skeinIn(t, home, "stats", "--json", dir)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct{ Rows []costRow }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	rows := map[string]costRow{}
	for _, r := range doc.Rows {
		rows[r.Path] = r
	}
	return rows
}

// A price table in the user's config folder replaces the one built in:
// Claude Code's and Codex's sessions cost what it says, though the stats
// memo holds them priced with the other; pi's and Dhara's keep the cost
// their agent recorded, though the table prices their models too; and the
// line under the table names the file. A file that is not a table is a
// warning, and the table built in is used.
func TestUserPriceTable(t *testing.T) {
	dir := statsStore(t)
	home, cfg := t.TempDir(), t.TempDir()
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("XDG_CONFIG_HOME", cfg)
	before := statsCosts(t, home, dir) // the table built in, kept in the memo

	// Every model any session names, at $1,000 a million tokens of any kind.
	models := map[string]any{}
	for _, r := range before {
		for _, m := range r.Models {
			_, id, _ := strings.Cut(m.Key, "/")
			models[id] = map[string]float64{"input": 1000, "output": 1000, "cacheRead": 1000, "cacheWrite": 1000}
		}
	}
	data, _ := json.Marshal(map[string]any{"source": "a test's", "models": models})
	path := filepath.Join(cfg, "skein", "prices.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	after := statsCosts(t, home, dir)
	tabled, recorded := 0, 0
	for p, r := range after {
		b := before[p]
		switch {
		case r.Tokens.Total == 0:
		case r.Format == "claude" || r.Format == "codex":
			tabled++
			if r.Cost == nil || math.Abs(*r.Cost-r.Tokens.Total/1000) > 1e-9 {
				t.Errorf("%s: cost %v for %v tokens at $1,000 a million", p, fmtCost(r.Cost), r.Tokens.Total)
			}
		default:
			recorded++
			if fmtCost(r.Cost) != fmtCost(b.Cost) {
				t.Errorf("%s (%s): cost %s, recorded %s", p, r.Format, fmtCost(r.Cost), fmtCost(b.Cost))
			}
		}
	}
	if tabled < 5 || recorded < 10 {
		t.Errorf("%d sessions priced from the table, %d recorded", tabled, recorded)
	}
	out, _, _ := skeinIn(t, home, "stats", dir)
	if !strings.Contains(out, fmt.Sprintf("from the price table (%s)", path)) {
		t.Errorf("the table's file is not named:\n%s", out)
	}

	if err := os.WriteFile(path, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := skeinIn(t, home, "stats", "--json", dir)
	if code != 0 || !strings.Contains(stderr, "skein: price table "+path+": ") || !strings.Contains(stderr, "the table built in is used") {
		t.Errorf("a bad table: exit %d, %q", code, stderr)
	}
	os.Remove(path)
	for p, r := range statsCosts(t, home, dir) {
		if fmtCost(r.Cost) != fmtCost(before[p].Cost) {
			t.Errorf("%s: cost %s with the table built in again, %s before", p, fmtCost(r.Cost), fmtCost(before[p].Cost))
		}
	}
}

func fmtCost(c *float64) string {
	if c == nil {
		return "null"
	}
	return fmt.Sprint(*c)
}
