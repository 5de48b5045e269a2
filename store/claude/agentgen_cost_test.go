package claude

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"skein/internal/formattest"
	"skein/internal/prices"
	"skein/model"
)

// The sessions Claude Code 2.1.332 wrote against a fake server, with the
// usage the server reported for each reply (testdata/agentgen/claude).
// agentgenClaude is the fixtures TestAgentgenContext reads.
var agentgenClaude = agentgen

func price(v float64) *float64 { return &v }

// opus55 is Claude Code's own price of claude-opus-5-5, the model every
// agentgen request names, per million tokens: what its total_cost_usd and
// cost-state lines come to on every fixture (input 4, output 20, cache
// reads 0.20, cache writes 5). models.dev, the table skein ships, has no
// such model; the table shipped has it from Claude Code (internal/prices).
var opus55 = prices.Price{Input: 4, Output: 20, CacheRead: price(0.2), CacheWrite: price(5)}

type agentgenReply struct {
	ID    string `json:"id"`
	Usage struct {
		Input      float64 `json:"input_tokens"`
		Output     float64 `json:"output_tokens"`
		CacheRead  float64 `json:"cache_read_input_tokens"`
		CacheWrite float64 `json:"cache_creation_input_tokens"`
	} `json:"usage"`
}

var replyID = regexp.MustCompile(`"id":"(msg_[a-z0-9-]+_[0-9]+)"`)

// TestAgentgenCost checks each session's cost against the usage the fake
// server reported, priced by hand a reply at a time: every reply the
// session's files (its own and its sub-agents') hold, once, but a fork's
// copies of its source's. With a table
// that prices the model, the stats' cost is that figure; with the table
// shipped, which does not, it is n/a (no cost, every token unpriced),
// never $0.00. Where a scenario is one session and no compaction (whose
// summary request no session file holds), the figure is also Claude
// Code's own total_cost_usd for the session's last run.
func TestAgentgenCost(t *testing.T) {
	scenarios, err := os.ReadDir(agentgenClaude)
	if err != nil {
		t.Fatal(err)
	}
	table := &prices.Table{Models: map[string]prices.Price{"claude-opus-5-5": opus55}}
	checked := 0 // sessions checked against Claude Code's own cost
	for _, sc := range scenarios {
		dir := filepath.Join(agentgenClaude, sc.Name())
		var replies []agentgenReply
		readJSON(t, filepath.Join(dir, "usage.json"), &replies)
		usage := map[string]agentgenReply{}
		for _, r := range replies {
			usage[r.ID] = r
		}
		sessions, _ := filepath.Glob(filepath.Join(dir, "home/.claude/projects/-sandbox-project/*.jsonl"))
		for _, path := range sessions {
			t.Run(sc.Name()+"/"+filepath.Base(path), func(t *testing.T) {
				s, err := Open(path)
				if err != nil {
					t.Fatal(err)
				}
				want, n := 0.0, 0
				for id := range repliesIn(t, path) {
					r, ok := usage[id]
					if !ok {
						continue
					}
					u := r.Usage
					want += (u.Input*4 + u.Output*20 + u.CacheRead*0.2 + u.CacheWrite*5) / 1e6
					n++
				}
				if n == 0 {
					t.Fatal("no reply of usage.json in the session's files")
				}
				defer prices.Use(prices.Use(table))
				st := s.Stats()
				if math.Abs(st.Cost-want) > 1e-12 || st.Unpriced != 0 || !st.TableCost {
					t.Errorf("cost %v (unpriced %v), want %v from %d replies", st.Cost, st.Unpriced, want, n)
				}
				if own, ok := claudeCodeCost(t, dir, SessionIDOf(readFile(t, path))); ok {
					checked++
					if math.Abs(st.Cost-own) > 1e-12 {
						t.Errorf("cost %v, Claude Code's own %v", st.Cost, own)
					}
				}

				// The table shipped prices claude-opus-5-5 as Claude Code
				// does (models.dev lacks it: its "from" says where the
				// price was read).
				prices.Use(nil)
				if st := s.Stats(); math.Abs(st.Cost-want) > 1e-12 || st.Unpriced != 0 {
					t.Errorf("with the table shipped: cost %v, unpriced %v, want %v", st.Cost, st.Unpriced, want)
				}
				// A table without the model: n/a, never $0.00.
				prices.Use(&prices.Table{Models: map[string]prices.Price{"other": opus55}})
				st = s.Stats()
				if st.Cost != 0 || st.Unpriced != st.Tokens() || st.Tokens() == 0 || model.CostText(st.UsageTotals, func(float64) string { return "$" }) != "n/a" {
					t.Errorf("with no price for the model: cost %v, unpriced %v of %v tokens", st.Cost, st.Unpriced, st.Tokens())
				}
				prices.Use(nil)
			})
		}
	}
	if checked != 10 {
		t.Errorf("%d sessions checked against Claude Code's own cost, want the 10 scenarios of one session and no compaction", checked)
	}
}

// repliesIn is the set of the fake server's message ids in the session's
// file and its sub-agents'.
func repliesIn(t *testing.T, path string) map[string]bool {
	files := []string{path}
	agents, _ := filepath.Glob(filepath.Join(path[:len(path)-len(".jsonl")], "subagents", "agent-*.jsonl"))
	ids := map[string]bool{}
	for _, f := range append(files, agents...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// A fork's copies of its source's replies carry requestSessionId
		// (finding 8): the source paid for them, not the fork.
		for _, line := range bytes.Split(data, []byte("\n")) {
			if bytes.Contains(line, []byte(`"requestSessionId"`)) {
				continue
			}
			for _, m := range replyID.FindAllSubmatch(line, -1) {
				ids[string(m[1])] = true
			}
		}
	}
	return ids
}

// claudeCodeCost is Claude Code's total_cost_usd after the last run of the
// session, where the scenario is that one session and made no compaction.
func claudeCodeCost(t *testing.T, dir, id string) (float64, bool) {
	var runs []struct {
		SessionID string `json:"sessionId"`
		Result    struct {
			Cost *float64 `json:"total_cost_usd"`
		} `json:"result"`
	}
	readJSON(t, filepath.Join(dir, "runs.json"), &runs)
	var replies []struct{ Purpose string }
	readJSON(t, filepath.Join(dir, "usage.json"), &replies)
	for _, r := range replies {
		if r.Purpose == "compact" {
			return 0, false
		}
	}
	cost, ok := 0.0, false
	for _, r := range runs {
		if r.SessionID != id {
			return 0, false // another session: a fork's cost is not its file's
		}
		if r.Result.Cost != nil {
			cost, ok = *r.Result.Cost, true
		}
	}
	return cost, ok
}

var (
	readJSON = formattest.ReadJSON
	readFile = formattest.ReadFile
)
