package search

import (
	"path/filepath"
	"sort"
	"testing"

	"skein/store"
)

// agent: narrows a search to one agent's sessions, named as its wording
// names it (any case) or by its format, through the index and without.
func TestAgentNarrows(t *testing.T) {
	_, files := fixtures(t)
	for _, glob := range []string{"../testdata/claude/*.jsonl", "../testdata/codex/*.jsonl"} {
		more, _ := filepath.Glob(glob)
		files = append(files, more...)
	}
	sort.Strings(files)
	formats := func(hits []Hit) map[string]int {
		n := map[string]int{}
		for _, h := range hits {
			n[h.Format]++
		}
		return n
	}
	all := brute(t, mustParse(t, "the"), files)
	if n := formats(all); n["pi"] == 0 || n["claude"] == 0 || n["codex"] == 0 {
		t.Fatalf("the fixtures do not mix the agents: %v", n)
	}
	idx := t.TempDir()
	x := OpenIndex(idx)
	defer x.Close()
	if err := x.Update(files, nil); err != nil {
		t.Fatal(err)
	}
	for query, want := range map[string]string{
		"the agent:codex": "codex", "agent:Codex the": "codex", "the agent:claude": "claude",
		`the "agent:claude code"`: "claude", "the agent:CLAUDE-CODE": "claude", "the agent:pi": "pi",
	} {
		q := mustParse(t, query)
		for what, hits := range map[string][]Hit{"without the index": brute(t, q, files), "through the index": x.Search(q, files, 0)} {
			n := formats(hits)
			if len(hits) == 0 || n[want] != len(hits) {
				t.Errorf("%s, %s: %v, want only %s", query, what, n, want)
			}
		}
		sameHits(t, query, x.Search(q, files, 0), brute(t, q, files))
	}
	if hits := brute(t, mustParse(t, "the agent:nobody"), files); len(hits) != 0 {
		t.Errorf("agent:nobody: %d hits", len(hits))
	}
	if _, err := Parse("agent:"); err == nil {
		t.Error("agent: with no name parsed")
	}
	if q := mustParse(t, "agent:codex"); q.Agent != "codex" || !q.OfAgent(string(store.FormatCodex)) || q.OfAgent(string(store.FormatPi)) {
		t.Errorf("agent:codex alone: %+v", q)
	}
}

func mustParse(t *testing.T, s string) *Query {
	t.Helper()
	q, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
