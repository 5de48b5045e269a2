package codex

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/internal/prices"
	"skein/model"
)

func price(v float64) *float64 { return &v }

// gptFake prices gpt-fake, the model the agentgen config names (no table
// has it), with a context tier low enough that some requests are over it
// and most are not: a cost made from a session's added-up tokens would
// put every request over it.
var gptFake = prices.Price{Input: 2, Output: 8, CacheRead: price(0.5),
	Tiers: []prices.Tier{{Above: 3000, Input: price(4), Output: price(12), CacheRead: price(1)}}}

// costDiffers names the rollouts whose cost is not yet their requests',
// with why: the test logs the difference, and fails once it is equal.
var costDiffers = map[string]string{}

// TestAgentgenCost checks each rollout's cost against the usage the fake
// server reported for its thread's requests, priced by hand a request at
// a time (a request's input counts its cached tokens, which are priced as
// cache reads; its input decides the tier). With the table shipped, which
// has no gpt-fake, the cost is n/a, never $0.00.
func TestAgentgenCost(t *testing.T) {
	table := &prices.Table{Models: map[string]prices.Price{"gpt-fake": gptFake}}
	tiered := 0 // requests over the tier
	for _, sc := range agentgen.Scenarios(t) {
		dir := sc.Dir
		var requests []struct {
			Thread string
			Usage  *struct {
				Input   float64 `json:"input_tokens"`
				Details struct {
					Cached float64 `json:"cached_tokens"`
				} `json:"input_tokens_details"`
				Output float64 `json:"output_tokens"`
			}
		}
		formattest.ReadJSON(t, filepath.Join(dir, "usage.json"), &requests)
		rollouts, _ := filepath.Glob(filepath.Join(dir, "codex-home/sessions/*/*/*/rollout-*.jsonl"))
		for _, path := range rollouts {
			name := sc.Name + "/" + filepath.Base(path)
			t.Run(name, func(t *testing.T) {
				s := open(t, path)
				want, n := 0.0, 0
				for _, r := range requests {
					if r.Thread != s.Meta.ID || r.Usage == nil {
						continue
					}
					u := r.Usage
					in, cached := u.Input-u.Details.Cached, u.Details.Cached
					if u.Input > 3000 {
						want += (in*4 + u.Output*12 + cached*1) / 1e6
						tiered++
					} else {
						want += (in*2 + u.Output*8 + cached*0.5) / 1e6
					}
					n++
				}
				if n == 0 {
					t.Fatal("no request of usage.json for the rollout's thread")
				}
				defer prices.Use(prices.Use(table))
				st := s.Stats()
				diff := ""
				if math.Abs(st.Cost-want) > 1e-12 || st.Unpriced != 0 {
					diff = fmt.Sprintf("cost %v (unpriced %v), want %v from %d requests", st.Cost, st.Unpriced, want, n)
				}
				formattest.KnownDiff(t, "costDiffers", costDiffers, name, diff)

				prices.Use(nil)
				st = s.Stats()
				if st.Cost != 0 || st.Unpriced != st.Tokens() || st.Tokens() == 0 || model.CostText(st.UsageTotals, func(float64) string { return "$" }) != "n/a" {
					t.Errorf("with the table shipped: cost %v, unpriced %v of %v tokens", st.Cost, st.Unpriced, st.Tokens())
				}
			})
		}
	}
	if tiered == 0 {
		t.Error("no request over the tier: the test cannot tell a cost per request from one of the totals")
	}
}
