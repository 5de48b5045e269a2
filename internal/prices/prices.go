// Package prices is the price table skein costs usage with, for the agents
// that record tokens but no cost (Claude Code, Codex): the models of the
// first-party providers, in US dollars per million tokens, with cache reads
// and writes and context tiers. The table shipped in the binary is
// prices.json (made by gen.py from models.dev, whose commit, date and
// license it names); a newer file of the same shape replaces it (Parse,
// Use). The package reads no file: its caller does.
package prices

import (
	"cmp"
	_ "embed"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

//go:embed prices.json
var embedded []byte

// Price is one model's prices per million tokens. A price the source does
// not give is nil: cache reads and writes are then priced as input, the
// dearest reading of a usage the source says nothing about.
type Price struct {
	Input      float64  `json:"input"`
	Output     float64  `json:"output"`
	CacheRead  *float64 `json:"cacheRead,omitempty"`
	CacheWrite *float64 `json:"cacheWrite,omitempty"`
	// Tiers are the prices of a request whose context (input, cache reads
	// and writes) is over Above tokens, lowest first; a price a tier does
	// not give is the model's own.
	Tiers []Tier `json:"tiers,omitempty"`
}

// Tier is the prices over a context size.
type Tier struct {
	Above      float64  `json:"above"`
	Input      *float64 `json:"input,omitempty"`
	Output     *float64 `json:"output,omitempty"`
	CacheRead  *float64 `json:"cacheRead,omitempty"`
	CacheWrite *float64 `json:"cacheWrite,omitempty"`
}

// Table is a price table and where it comes from.
type Table struct {
	Source string           `json:"source"`
	Commit string           `json:"commit"`
	Date   string           `json:"date"`
	Models map[string]Price `json:"models"`
	// Path is the file the table was read from; "" for the embedded one.
	Path string `json:"-"`
	hash uint64
}

// Parse reads a table written as prices.json is: {"models": {id: {input,
// output, cacheRead, cacheWrite, tiers}}} and what it comes from.
func Parse(data []byte) (*Table, error) {
	var t Table
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, err
	}
	if len(t.Models) == 0 {
		return nil, fmt.Errorf("no models in the price table")
	}
	for id, p := range t.Models {
		if p.Input < 0 || p.Output < 0 || neg(p.CacheRead) || neg(p.CacheWrite) {
			return nil, fmt.Errorf("model %q: a negative price", id)
		}
		if !slices.IsSortedFunc(p.Tiers, func(a, b Tier) int { return cmp.Compare(a.Above, b.Above) }) {
			return nil, fmt.Errorf("model %q: tiers not in order of size", id)
		}
	}
	h := fnv.New64a()
	h.Write(data)
	t.hash = h.Sum64()
	return &t, nil
}

func neg(p *float64) bool { return p != nil && *p < 0 }

// Hash tells tables apart: a cost made with one table is not another's.
func (t *Table) Hash() uint64 { return t.hash }

var current atomic.Pointer[Table]

// Embedded is the table shipped in the binary.
func Embedded() *Table {
	t, err := Parse(embedded)
	if err != nil {
		panic("prices.json: " + err.Error())
	}
	return t
}

// embeddedTable is parsed on first use, not at every start of the binary.
var embeddedTable = sync.OnceValue(Embedded)

// Current is the table in use: the one Use set, else the embedded one.
func Current() *Table {
	if t := current.Load(); t != nil {
		return t
	}
	return embeddedTable()
}

// Use makes t the table in use (nil: the embedded one) and returns the
// one it replaces, for a caller to restore.
func Use(t *Table) *Table {
	old := current.Swap(t)
	if old == nil {
		old = embeddedTable()
	}
	return old
}

// The parts of a model id the agents add to the id the table knows, tried
// off one after the other: a provider's prefix (anthropic/claude-...,
// openrouter/openai/gpt-5), Bedrock's region and vendor prefix
// (us.anthropic.claude-...) and version suffix (-v1:0), Vertex's date
// (@20250929) and a date suffix (-20251101, -2024-08-06).
var (
	bedrockPrefix = regexp.MustCompile(`^(?:[a-z]{2,4}\.)?anthropic\.`)
	bedrockSuffix = regexp.MustCompile(`-v\d+(?::\d+)?$`)
	dateSuffix    = regexp.MustCompile(`(?:[-@]\d{8}|-\d{4}-\d{2}-\d{2})$`)
)

// Lookup is the price of the model an agent names, and the table's id for
// it. The rule: the id as written; else without what comes up to its last
// "/" (a provider); else also without Bedrock's prefix and version suffix;
// else also without a date suffix. Nothing else is guessed: a model the
// table does not name has no price.
func (t *Table) Lookup(id string) (Price, string, bool) {
	try := func(s string) (Price, string, bool) {
		p, ok := t.Models[s]
		return p, s, ok
	}
	if p, s, ok := try(id); ok {
		return p, s, ok
	}
	if k := strings.LastIndexByte(id, '/'); k >= 0 {
		id = id[k+1:]
		if p, s, ok := try(id); ok {
			return p, s, ok
		}
	}
	if b := bedrockSuffix.ReplaceAllString(bedrockPrefix.ReplaceAllString(id, ""), ""); b != id {
		id = b
		if p, s, ok := try(id); ok {
			return p, s, ok
		}
	}
	if d := dateSuffix.ReplaceAllString(id, ""); d != id {
		if p, s, ok := try(d); ok {
			return p, s, ok
		}
	}
	return Price{}, "", false
}

// Cost is what one request's usage costs at p, in dollars: its context
// (input, cache reads and writes) picks the tier, and every token of the
// request is priced at that tier's prices.
func (p Price) Cost(input, output, cacheRead, cacheWrite float64) float64 {
	in, out := p.Input, p.Output
	cr, cw := or(p.CacheRead, in), or(p.CacheWrite, in)
	ctx := input + cacheRead + cacheWrite
	for _, t := range p.Tiers {
		if ctx > t.Above {
			in, out = or(t.Input, p.Input), or(t.Output, p.Output)
			cr, cw = or(t.CacheRead, or(p.CacheRead, in)), or(t.CacheWrite, or(p.CacheWrite, in))
		}
	}
	return (input*in + output*out + cacheRead*cr + cacheWrite*cw) / 1e6
}

func or(p *float64, v float64) float64 {
	if p != nil {
		return *p
	}
	return v
}
