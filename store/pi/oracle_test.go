package pi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"skein/model"
)

// expected is what testdata/pigen/oracle.mjs recorded from pi 1.6.0.
type expected struct {
	Session bool `json:"session"`
	// BomStripped is what pi computes for a file that starts with a
	// byte-order mark once it is stripped: pi does not read such a file,
	// skein does (a deliberate difference).
	BomStripped      *expected           `json:"bomStripped"`
	ContextEntryIDs  []string            `json:"contextEntryIds"`
	ContextsEntryIDs map[string][]string `json:"contextsEntryIds"`
	Usage            *struct {
		Error string `json:"error"` // pi throws (a usage entry without usage)
		Stats struct {
			UserMessages, AssistantMessages, ToolCalls, ToolResults, TotalMessages int
			Tokens                                                                 struct{ Input, Output, CacheRead, CacheWrite float64 }
			Cost                                                                   float64
		} `json:"stats"`
		Breakdown []struct {
			Key          string
			Cost, Tokens float64
		} `json:"breakdown"`
	} `json:"usage"`
	LeafID     *string                    `json:"leafId"`
	EntryOrder []*string                  `json:"entryOrder"`
	Loops      []string                   `json:"loops"`
	Tree       any                        `json:"tree"`
	TreeText   map[string][]string        `json:"treeText"`
	Context    *json.RawMessage           `json:"context"`
	Contexts   map[string]json.RawMessage `json:"contexts"`
	Tokens     map[string]float64         `json:"tokens"`
	Plans      []struct {
		Leaf string          `json:"leaf"`
		Keep float64         `json:"keepRecentTokens"`
		Plan json.RawMessage `json:"plan"`
	} `json:"plans"`
}

func fixtureFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"store", "legacy", "broken"} {
		err := filepath.WalkDir(filepath.Join("..", "..", "testdata", "pi", dir), func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".jsonl") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d fixtures found", len(files))
	}
	return files
}

func loadExpected(t *testing.T, file string) expected {
	t.Helper()
	rel, _ := filepath.Rel(filepath.Join("..", "..", "testdata", "pi"), file)
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "pi", "expected", rel+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp expected
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatal(err)
	}
	return exp
}

// canon decodes JSON for a value-for-value comparison.
func canon(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	d := json.NewDecoder(bytes.NewReader(data))
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode %.200s: %v", data, err)
	}
	return v
}

// mapIDs rewrites pi's ids to skein's where they differ (pi draws random ids
// when it migrates a v1 file).
func mapIDs(v any, ids map[string]string) any {
	switch x := v.(type) {
	case string:
		if m, ok := ids[x]; ok {
			return m
		}
		return x
	case []any:
		for i := range x {
			x[i] = mapIDs(x[i], ids)
		}
	case map[string]any:
		for k, val := range x {
			x[k] = mapIDs(val, ids)
		}
	}
	return v
}

// dropUndefinedIDs turns pi's tree nodes without an id (lines that are not
// entry objects) into the nulls skein writes.
func nullMissing(v any) any {
	switch x := v.(type) {
	case []any:
		for i := range x {
			x[i] = nullMissing(x[i])
		}
	case map[string]any:
		for _, k := range []string{"id", "type"} {
			if _, ok := x[k]; !ok {
				if _, isNode := x["children"]; isNode {
					x[k] = nil
				}
			}
		}
		for k, val := range x {
			x[k] = nullMissing(val)
		}
	}
	return v
}

func TestAgainstReference(t *testing.T) {
	for _, file := range fixtureFiles(t) {
		t.Run(strings.TrimPrefix(file, "../../testdata/pi/"), func(t *testing.T) {
			exp := loadExpected(t, file)
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(data)
			var notSession *NotSessionError
			if !exp.Session && exp.BomStripped != nil {
				exp = *exp.BomStripped
			}
			if !exp.Session {
				if !errors.As(err, &notSession) {
					t.Fatalf("pi says not a session; Parse err = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if len(exp.EntryOrder) != len(s.Entries) {
				t.Fatalf("%d entries, pi has %d", len(s.Entries), len(exp.EntryOrder))
			}
			ids := map[string]string{}
			for i, id := range exp.EntryOrder {
				if id != nil && *id != s.Entries[i].ID {
					ids[*id] = s.Entries[i].ID
				}
			}
			looping := map[string]bool{}
			for _, id := range exp.Loops {
				looping[id] = true
			}
			// Tree.
			var tree bytes.Buffer
			if err := s.WriteTreeJSON(&tree); err != nil {
				t.Fatal(err)
			}
			if len(exp.Loops) == 0 {
				want := nullMissing(mapIDs(exp.Tree, ids))
				if got := canon(t, tree.Bytes()); !reflect.DeepEqual(got, want) {
					t.Errorf("tree differs\n got %s\nwant %s", tree.Bytes(), mustJSON(want))
				}
			} else if !json.Valid(tree.Bytes()) {
				t.Errorf("tree of a looping file is not JSON")
			}
			// pi's /tree text, every filter.
			for name, want := range exp.TreeText {
				f, ok := model.ParseTreeFilter(name)
				if !ok {
					t.Fatalf("filter %s", name)
				}
				v := s.Domain(model.SessionInfo{}).NewTreeView(s.Leaf(), f)
				got := v.Lines(v.NearestVisible(s.Leaf()), "/home/dev")
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("/tree %s differs\n got:\n%s\nwant:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
			// Leaf.
			if exp.LeafID != nil && ids[*exp.LeafID] == "" && s.Entries[s.Leaf()].ID != *exp.LeafID {
				t.Errorf("leaf %s, pi %s", s.Entries[s.Leaf()].ID, *exp.LeafID)
			}
			// Contexts.
			checkContext := func(name string, leaf int, want json.RawMessage, wantIDs []string) {
				t.Helper()
				ctx := s.BuildContext(leaf)
				var buf bytes.Buffer
				if err := s.WriteContextJSON(&buf, ctx); err != nil {
					t.Fatal(err)
				}
				got := canon(t, buf.Bytes()).(map[string]any)
				entryIDs := got["entryIds"].([]any)
				delete(got, "entryIds")
				w := mapIDs(canon(t, want), ids)
				if !reflect.DeepEqual(got, w) {
					t.Errorf("context at %s differs\n got %.3000s\nwant %.3000s", name, buf.Bytes(), mustJSON(w))
				}
				// entryIds: each message comes from the entry named beside it.
				msgs := got["messages"].([]any)
				if len(entryIDs) != len(msgs) {
					t.Fatalf("%d entryIds for %d messages", len(entryIDs), len(msgs))
				}
				for k, m := range ctx.Messages {
					if entryIDs[k] != s.Entries[m.Entry].ID {
						t.Errorf("entryIds[%d] = %v, want %s", k, entryIDs[k], s.Entries[m.Entry].ID)
					}
				}
				// And they are pi's: a compaction with a checkpoint gives two.
				if wantIDs != nil {
					if w := mapIDs(canon(t, mustJSON(wantIDs)), ids); !reflect.DeepEqual(entryIDs, w) {
						t.Errorf("entryIds at %s\n got %v\nwant %v", name, entryIDs, w)
					}
				}
			}
			if exp.Context != nil {
				checkContext("leaf", s.Leaf(), *exp.Context, exp.ContextEntryIDs)
			}
			for id, want := range exp.Contexts {
				if id == "undefined" { // pi's key for an entry without an id
					continue
				}
				sid := id
				if m, ok := ids[id]; ok {
					sid = m
				}
				i, ok := s.Index(sid)
				if !ok {
					t.Fatalf("no entry %s", sid)
				}
				checkContext(sid, i, want, exp.ContextsEntryIDs[id])
			}
			// Token estimates.
			for id, want := range exp.Tokens {
				sid := id
				if m, ok := ids[id]; ok {
					sid = m
				}
				i, _ := s.Index(sid)
				if got := s.Entries[i].Tokens(); float64(got) != want {
					t.Errorf("tokens of %s = %d, pi %v", sid, got, want)
				}
			}
			// Plans.
			for _, p := range exp.Plans {
				sid := p.Leaf
				if m, ok := ids[sid]; ok {
					sid = m
				}
				i, _ := s.Index(sid)
				got := canon(t, s.PlanCompaction(i, p.Keep).JSON())
				want := mapIDs(canon(t, p.Plan), ids)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("plan at %s keep %v\n got %s\nwant %s", sid, p.Keep, s.PlanCompaction(i, p.Keep).JSON(), mustJSON(want))
				}
			}
		})
	}
}

// The session's usage totals are pi 1.6.0's (the summarizer's requests are
// checked in summarize).
func TestUsageAgainstReference(t *testing.T) {
	checked := 0
	for _, file := range fixtureFiles(t) {
		exp := loadExpected(t, file)
		if exp.BomStripped != nil {
			exp = *exp.BomStripped
		}
		if !exp.Session || len(exp.Loops) > 0 {
			continue
		}
		data, _ := os.ReadFile(file)
		s, err := Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		if u := exp.Usage; u != nil && u.Error == "" {
			st := s.Stats()
			w := u.Stats
			if st.UserMessages != w.UserMessages || st.AssistantMessages != w.AssistantMessages || st.ToolCalls != w.ToolCalls || st.ToolResults != w.ToolResults || st.Messages != w.TotalMessages ||
				st.TokensIn != w.Tokens.Input || st.TokensOut != w.Tokens.Output || st.CacheRead != w.Tokens.CacheRead || st.CacheWrite != w.Tokens.CacheWrite || st.Cost != w.Cost {
				t.Errorf("%s: stats %+v, pi %+v", file, st.Totals, w)
			}
			if st.Incomplete != 0 {
				t.Errorf("%s: %d usages incomplete where pi adds them all", file, st.Incomplete)
			}
			var got []string
			for _, m := range st.ByModel {
				got = append(got, fmt.Sprintf("%s %v %v", m.Key, m.Cost, m.Tokens()))
			}
			var want []string
			for _, m := range u.Breakdown {
				want = append(want, fmt.Sprintf("%s %v %v", m.Key, m.Cost, m.Tokens))
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: by model\n got %q\nwant %q", file, got, want)
			}
			checked++
		} else if u != nil && s.Stats().Incomplete == 0 {
			// pi throws; skein adds what is there and says so.
			t.Errorf("%s: pi's totals throw (%s), and no usage is marked incomplete", file, u.Error)
		}
	}
	if checked < 5 {
		t.Errorf("only %d sessions' usage checked", checked)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func TestDiagnosticsOfBrokenFiles(t *testing.T) {
	cases := map[string][]string{
		"garbage.jsonl":   {"malformed JSON", "not an entry object", "entry has no id"},
		"truncated.jsonl": {"partial last line"},
		"orphans.jsonl":   {"unknown parent", "its own parent", "duplicate id", "label of missing entry"},
		"cycle.jsonl":     {"parent cycle"},
	}
	for name, wants := range cases {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "pi", "broken", name))
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var all []string
		for _, d := range s.Diagnostics {
			all = append(all, d.String())
		}
		sort.Strings(all)
		joined := strings.Join(all, "\n")
		for _, w := range wants {
			if !strings.Contains(joined, w) {
				t.Errorf("%s: no diagnostic %q in\n%s", name, w, joined)
			}
		}
	}
}

func TestStatsAndHistory(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/pi/store/--home-dev-tools--/2026-03-04*.jsonl")
	data, _ := os.ReadFile(files[0])
	s, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	if st.Compactions != 5 || st.Messages != 51 || st.ToolCalls != 20 || len(st.Models) != 1 || st.TokensIn <= 0 || st.Cost <= 0 {
		t.Errorf("stats %+v", st)
	}
	leaf := s.Leaf()
	ctx := s.BuildContext(leaf)
	hist := s.BuildHistory(leaf)
	if n := s.Summarized(leaf, ctx); n <= 0 || n >= len(hist.Messages) {
		t.Errorf("history %d, context %d, summarized %d", len(hist.Messages), len(ctx.Messages), n)
	}
	compactions := 0
	for _, m := range hist.Messages {
		if m.Kind == model.KindCompactionSummary {
			compactions++
		}
	}
	if compactions == 0 {
		t.Error("history lacks the compaction markers")
	}
}
