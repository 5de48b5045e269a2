package summarize

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"skein/model"
)

func TestExtractiveSummary(t *testing.T) {
	s := session(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	p := s.PlanCompaction(s.Leaf(), 10)
	if p == nil || len(p.MessagesToSummarize) == 0 {
		t.Fatalf("plan %+v", p)
	}
	sum := ExtractiveSummary(s, p)
	for _, want := range []string{
		"## Goal\n- Add a /health endpoint to the server and a test for it.",
		"## Constraints & Preferences", "## Progress\n### Done\n",
		"- [x] Read `src/server.ts`", "- [x] Edited `src/server.ts`", "- [x] Wrote `test/health.test.ts`",
		"- [x] Ran `npm test -- health`", "### In Progress", "### Blocked", "## Key Decisions", "## Next Steps", "## Critical Context",
	} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	if p.IsSplitTurn && !strings.Contains(sum, "**Turn Context (split turn):**") {
		t.Errorf("split turn without its context:\n%s", sum)
	}
}

func TestExtractiveSummaryKeepsPreviousAndErrors(t *testing.T) {
	s := session(t, "store/--home-dev-tools--/2026-03-04*.jsonl")
	// Before the last compaction's end: plan a new one on top of the others.
	p := s.PlanCompaction(s.Leaf(), 10)
	if p == nil || p.PreviousCompaction < 0 {
		t.Fatalf("plan %+v", p)
	}
	sum := ExtractiveSummary(s, p)
	if !strings.Contains(sum, "Refactor the parser") && !strings.Contains(sum, "Keep the session going") {
		t.Errorf("previous goals lost:\n%s", sum)
	}
	b := session(t, "store/--home-dev-webapp--/2026-03-03*.jsonl")
	// The Redis branch: its failed ping is an error met.
	i, _ := b.Index(branchTip(b))
	pb := b.PlanCompaction(i, 0)
	if pb != nil {
		if sb := ExtractiveSummary(b, pb); !strings.Contains(sb, "Could not connect to Redis") {
			t.Errorf("error not reported:\n%s", sb)
		}
	}
}

// branchTip finds the assistant message "Redis is not running here.".
func branchTip(s *model.Session) string {
	for i := range s.Len() {
		e := s.Entry(i)
		if m := s.EntryMessage(i); e.Role == model.RoleAssistant && strings.Contains(m.Text("\n"), "Redis is not running here") {
			return e.ID
		}
	}
	return ""
}

func TestSerializeConversation(t *testing.T) {
	s := session(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	ctx := s.BuildContext(s.Leaf())
	text := SerializeConversation(s, ctx.Messages)
	for _, want := range []string{
		"[User]: Add a /health endpoint",
		"[Assistant]: Let me read the server.",
		`[Assistant tool calls]: read(path="src/server.ts")`,
		"[Tool result]: import express",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q", want)
		}
	}
	// pi 1.6.0 leaves thinking out of the serialized conversation.
	if strings.Contains(text, "I should look at the server first.") || strings.Contains(text, "thinking") {
		t.Errorf("thinking serialized: %s", text)
	}
	prompt := SummaryPrompt(text, "", "focus on tests")
	if !strings.HasPrefix(prompt, "<conversation>\n") || !strings.HasSuffix(prompt, "Additional focus: focus on tests") {
		t.Errorf("prompt: %.80q … %.80q", prompt, prompt[len(prompt)-80:])
	}
}

// The hand-written scanners are the regular expressions they replaced.
func FuzzMarkdownNoiseAndSentences(f *testing.F) {
	markdownNoise := regexp.MustCompile("(?m)^#{1,6} |\\*\\*|__|^```.*$|^\\s*[-*] ")
	sentenceEnd := regexp.MustCompile(`([.!?])(\s+|$)`)
	oldSentences := func(text string) []string {
		text = strings.Join(strings.Fields(text), " ")
		var out []string
		for text != "" {
			loc := sentenceEnd.FindStringIndex(text)
			if loc == nil {
				out = append(out, text)
				break
			}
			out = append(out, strings.TrimSpace(text[:loc[0]+1]))
			text = text[loc[1]:]
		}
		return joinListNumbers(out)
	}
	for _, s := range []string{"", "# Title\n## Sub\n####### seven\n- a\n* b\n  - c\n\n\n- d\n**bold** __u__ ***x*** ____", "Done. Next? Yes! ok.", "a.b. c...  d!?e ?", "\t\n - x\n#", "## \n-\n- ", "\x00\n*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, "```") {
			return // fences are dropped before either runs
		}
		if got, want := dropMarkdownNoise(s), markdownNoise.ReplaceAllString(s, ""); got != want {
			t.Fatalf("dropMarkdownNoise(%q) = %q, want %q", s, got, want)
		}
		if got, want := sentences(s), oldSentences(s); !slices.Equal(got, want) {
			t.Fatalf("sentences(%q) = %q, want %q", s, got, want)
		}
	})
}

// mayMatch never says no where the regular expressions say yes.
func FuzzWordHints(f *testing.F) {
	for _, s := range []string{"Don't do that", "we DECIDED to", "use X rather than Y", "Switched to Go", "KEEP THE API", "nothing here", "No.", "do  not", "mustn't"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if constraintWord.MatchString(s) && !mayMatch(s, constraintHints) {
			t.Fatalf("constraint %q", s)
		}
		if decisionWord.MatchString(s) && !mayMatch(s, decisionHints) {
			t.Fatalf("decision %q", s)
		}
	})
}

// A numbered list's numbers stay with their items.
func TestSentencesKeepListNumbers(t *testing.T) {
	got := sentences("1. Read rows with a CSV reader. 2. Write them out! Done.")
	want := []string{"1. Read rows with a CSV reader.", "2. Write them out!", "Done."}
	if !slices.Equal(got, want) {
		t.Errorf("sentences: %q", got)
	}
}
