package summarize

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/store"
)

// expectedSummary is what pi 1.6.0's compact would send a model for a plan.
type expectedSummary struct {
	Leaf                   string  `json:"leaf"`
	Keep                   float64 `json:"keepRecentTokens"`
	CustomInstructions     *string `json:"customInstructions"`
	PreviousSummary        *string `json:"previousSummary"`
	Conversation           *string `json:"conversation"`
	TurnPrefixConversation *string `json:"turnPrefixConversation"`
	Requests               []struct {
		System string `json:"system"`
		Prompt string `json:"prompt"`
	} `json:"requests"`
}

// TestSummarizerAgainstReference: the serialized conversations, the
// previous summary and the requests pi 1.6.0's compact sends a model, for
// the plans testdata/pigen/oracle.mjs recorded.
func TestSummarizerAgainstReference(t *testing.T) {
	var files []string
	filepath.WalkDir(filepath.Join("..", "testdata", "pi", "expected"), func(p string, d os.DirEntry, err error) error {
		// pi draws random ids when it migrates a v1 file: no plan to match.
		if err == nil && strings.HasSuffix(p, ".jsonl.json") && !strings.Contains(p, "legacy/v1") {
			files = append(files, p)
		}
		return err
	})
	checked := 0
	for _, exp := range files {
		data, err := os.ReadFile(exp)
		if err != nil {
			t.Fatal(err)
		}
		var e struct {
			Summaries   []expectedSummary `json:"summaries"`
			BomStripped *struct {
				Summaries []expectedSummary `json:"summaries"`
			} `json:"bomStripped"`
		}
		if err := json.Unmarshal(data, &e); err != nil {
			t.Fatal(err)
		}
		if e.BomStripped != nil {
			e.Summaries = e.BomStripped.Summaries
		}
		if len(e.Summaries) == 0 {
			continue
		}
		rel, _ := filepath.Rel(filepath.Join("..", "testdata", "pi", "expected"), exp)
		file := filepath.Join("..", "testdata", "pi", strings.TrimSuffix(rel, ".json"))
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := store.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range e.Summaries {
			i, ok := s.Index(want.Leaf)
			if !ok {
				t.Fatalf("%s: no entry %s", file, want.Leaf)
			}
			p := s.PlanCompaction(i, want.Keep)
			if p == nil {
				t.Errorf("%s: no plan at %s keep %v", file, want.Leaf, want.Keep)
				continue
			}
			checked++
			instructions := ""
			if want.CustomInstructions != nil {
				instructions = *want.CustomInstructions
			}
			var got []string
			history := SerializeConversation(s, p.MessagesToSummarize)
			if want.Conversation != nil && history != *want.Conversation {
				t.Errorf("%s at %s: conversation\n got %q\nwant %q", file, want.Leaf, history, *want.Conversation)
			}
			if prev := PreviousSummary(s, p); (want.PreviousSummary == nil) != (prev == "") || want.PreviousSummary != nil && prev != *want.PreviousSummary {
				t.Errorf("%s at %s: previous summary %q", file, want.Leaf, prev)
			}
			if len(p.MessagesToSummarize) > 0 || !p.IsSplitTurn {
				got = append(got, SummaryPrompt(history, PreviousSummary(s, p), instructions))
			}
			if p.IsSplitTurn && len(p.TurnPrefixMessages) > 0 {
				prefix := SerializeConversation(s, p.TurnPrefixMessages)
				if want.TurnPrefixConversation != nil && prefix != *want.TurnPrefixConversation {
					t.Errorf("%s at %s: turn prefix\n got %q\nwant %q", file, want.Leaf, prefix, *want.TurnPrefixConversation)
				}
				got = append(got, TurnPrefixPrompt(prefix, instructions))
			}
			if len(got) != len(want.Requests) {
				t.Errorf("%s at %s: %d requests, pi sends %d", file, want.Leaf, len(got), len(want.Requests))
				continue
			}
			for k, r := range want.Requests {
				if r.System != SummarizationSystemPrompt {
					t.Errorf("system prompt %q", r.System)
				}
				if got[k] != r.Prompt {
					t.Errorf("%s at %s: request %d\n got %q\nwant %q", file, want.Leaf, k, got[k], r.Prompt)
				}
			}
		}
	}
	t.Logf("%d plans' requests checked", checked)
	if checked < 20 {
		t.Errorf("only %d summarizer requests checked", checked)
	}
}
