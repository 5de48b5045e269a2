package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// skein stats --json prints, for each fixture, what pi 1.6.0's
// getSessionStats and getUsageCostBreakdown computed for it (recorded by
// testdata/pigen/oracle.mjs).
func TestStatsJSONIsPis(t *testing.T) {
	out, stderr, code := skein(t, "stats", "--json", "../testdata/pi/store")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	type piStats struct {
		UserMessages, AssistantMessages, ToolCalls, ToolResults, TotalMessages int
		Tokens                                                                 struct{ Input, Output, CacheRead, CacheWrite, Total float64 }
		Cost                                                                   float64
	}
	type breakdown struct {
		Key          string
		Cost, Tokens float64
	}
	var doc struct {
		Rows []struct {
			Path string
			piStats
			Models []breakdown
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	rows := doc.Rows
	if len(rows) < 15 {
		t.Fatalf("%d sessions", len(rows))
	}
	for _, r := range rows {
		rel, _ := filepath.Rel("../testdata/pi", r.Path)
		data, err := os.ReadFile(filepath.Join("../testdata/pi/expected", rel+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var exp struct {
			Usage struct {
				Stats     piStats
				Breakdown []breakdown
			}
		}
		if err := json.Unmarshal(data, &exp); err != nil {
			t.Fatal(err)
		}
		if r.piStats != exp.Usage.Stats {
			t.Errorf("%s:\n got %+v\nwant %+v", rel, r.piStats, exp.Usage.Stats)
		}
		if !reflect.DeepEqual(r.Models, exp.Usage.Breakdown) {
			t.Errorf("%s: models\n got %+v\nwant %+v", rel, r.Models, exp.Usage.Breakdown)
		}
	}
}

// Each --by groups the same sessions: the totals agree, and the table ends
// with them.
func TestStatsBy(t *testing.T) {
	local := time.Local
	time.Local = time.UTC
	defer func() { time.Local = local }()
	totals := map[string]float64{}
	for _, by := range []string{"session", "project", "model", "day"} {
		out, stderr, code := skein(t, "stats", "--json", "--by", by, "../testdata/pi/store")
		if code != 0 {
			t.Fatalf("--by %s: exit %d: %s", by, code, stderr)
		}
		var doc struct {
			Rows []struct {
				Cwd, Key string
				Day      *string
				Sessions int
				Tokens   json.RawMessage
				Cost     float64
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("--by %s: %v", by, err)
		}
		rows := doc.Rows
		for _, r := range rows {
			var tok struct{ Total float64 }
			if err := json.Unmarshal(r.Tokens, &tok); err != nil {
				json.Unmarshal(r.Tokens, &tok.Total) // a model's tokens are pi's number
			}
			totals[by] += tok.Total
		}
		text, _, _ := skein(t, "stats", "--by", by, "../testdata/pi/store")
		lines := strings.Split(strings.TrimSpace(text), "\n")
		if len(lines) != len(rows)+3 || !strings.HasPrefix(lines[len(lines)-1], "total") {
			t.Errorf("--by %s: %d rows, table:\n%s", by, len(rows), text)
		}
		switch by {
		case "day":
			if len(rows) != 15 || *rows[0].Day != "2026-03-02" || rows[0].Sessions != 1 {
				t.Errorf("--by day: %+v", rows[0])
			}
		case "project":
			if rows[0].Cwd != "/home/dev/big" || rows[0].Sessions != 1 {
				t.Errorf("--by project: %+v", rows[0])
			}
		case "model":
			if rows[0].Key != "anthropic/claude-sonnet-4-5" || rows[0].Sessions != 9 {
				t.Errorf("--by model: %+v", rows[0])
			}
		}
	}
	for by, n := range totals {
		if n != totals["session"] || n == 0 {
			t.Errorf("--by %s adds up to %v tokens, --by session to %v", by, n, totals["session"])
		}
	}
}

// Text from the session reaches the table sanitized, and a usage pi cannot
// add is said so, never a failure.
func TestStatsTextAndIncomplete(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "s.jsonl")
	os.WriteFile(f, []byte(`{"type":"session","version":3,"id":"s\u001b]0;x\u0007","timestamp":"2026-03-01T00:00:00.000Z","cwd":"/w\u001b[2J"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-03-01T00:00:00.000Z","message":{"role":"user","content":"hi \u001b[31mred","timestamp":1}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-03-01T00:00:10.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"b\u001b[1mash","arguments":{}}],"provider":"p","model":"m","usage":{"input":10,"output":1,"cacheRead":0,"cacheWrite":0},"stopReason":"toolUse","timestamp":2}}
`), 0o644)
	out, stderr, code := skein(t, "stats", f)
	if code != 0 || strings.Contains(out, "\x1b") || !strings.Contains(out, "pi's own totals fail") || !strings.Contains(out, "hi ␛[31mred") {
		t.Errorf("exit %d %s:\n%s", code, stderr, out)
	}
	out, _, _ = skein(t, "stats", "--json", f)
	if !strings.Contains(out, `"incompleteUsage":1`) || !strings.Contains(out, `"input":10`) {
		t.Errorf("json: %s", out)
	}
	_, stderr, code = skein(t, "stats", "--by", "week", f)
	if code != 2 || !strings.Contains(stderr, "--by wants") {
		t.Errorf("--by week: exit %d %s", code, stderr)
	}
	out, _, code = skein(t, "stats", t.TempDir())
	if code != 0 || !strings.Contains(out, "no sessions found") {
		t.Errorf("empty: exit %d %q", code, out)
	}
}

// A Codex session's title in stats is its first prompt, as the list has
// it, not the AGENTS.md instructions Codex puts first.
func TestStatsCodexTitle(t *testing.T) {
	out, _, code := skein(t, "stats", "../testdata/codex/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl")
	if code != 0 || !strings.Contains(out, "what is current repository about?") || strings.Contains(out, "AGENTS.md") {
		t.Errorf("exit %d\n%s", code, out)
	}
}
