package export

import (
	"bytes"
	"path/filepath"
	"regexp"
	"testing"

	"skein/model"
	"skein/store"
)

// codexRollout is the session of a Codex 0.171.0 rollout of
// testdata/agentgen/codex.
func codexRollout(t *testing.T, scenario string) *model.Session {
	t.Helper()
	paths, _ := filepath.Glob("../testdata/agentgen/codex/fixtures/" + scenario + "/codex-home/sessions/*/*/*/*.jsonl")
	if len(paths) != 1 {
		t.Fatalf("%s: rollouts %v", scenario, paths)
	}
	s, err := store.Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Both exports mark the context Codex injected (the AGENTS.md
// instructions, the environment) as the agent's, not as the user's words,
// and show a failed turn's error as the assistant's reply.
func TestExportsMarkContextAndErrors(t *testing.T) {
	for _, c := range []struct {
		scenario string
		markdown []string // in this order
		html     []string
	}{
		{"plain",
			[]string{"### context · added by the agent · ", "# AGENTS.md instructions for", "### user · ", "Say hello"},
			[]string{`<article class="m context" id="m1"><div class="h"><b>context</b> <span>added by the agent</span>`, `<article class="m user" id="m2">`}},
		{"server-errors",
			[]string{"Hello again?", "### assistant · gpt-fake · ", "**Error**", "'developer' is not one of", "Are you there?",
				"I was about to answer when", "**Error**", "stream disconnected before completion", "Last try"},
			[]string{`<article class="m assistant error" id="m5">`, `<div class="x err">{&#34;error&#34;:{&#34;message&#34;:&#34;&#39;developer&#39; is not one of`}},
	} {
		s := codexRollout(t, c.scenario)
		var md, page bytes.Buffer
		if err := Markdown(&md, s, Options{}); err != nil {
			t.Fatal(err)
		}
		if err := HTML(&page, s, Options{}); err != nil {
			t.Fatal(err)
		}
		rest := md.Bytes()
		for _, want := range c.markdown {
			k := bytes.Index(rest, []byte(want))
			if k < 0 {
				t.Errorf("%s: the markdown lacks %q after what came before:\n%s", c.scenario, want, md.Bytes())
				break
			}
			rest = rest[k+len(want):]
		}
		for _, want := range c.html {
			if !bytes.Contains(page.Bytes(), []byte(want)) {
				t.Errorf("%s: the page lacks %q:\n%s", c.scenario, want, regexp.MustCompile(`(?s)<main>.*</main>`).Find(page.Bytes()))
			}
		}
	}
}
