package transcript

import (
	"path/filepath"
	"strings"
	"testing"

	"skein/model"
	"skein/store"
)

// A turn whose model call failed has the error for its reply: in the
// context's view (session show, the messages pane) an agent that does not
// send the error back has it dimmed where it stood, as omitted from the
// context, with its text in the error style; in the history's view it is
// the assistant's reply. The rollout is Codex 0.171.0's, whose second and
// third turns failed (an HTTP 400, then a stream cut after some text).
func TestFailedTurnShowsItsError(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/agentgen/codex/fixtures/server-errors/codex-home/sessions/*/*/*/*.jsonl")
	if len(paths) != 1 {
		t.Fatalf("rollouts %v", paths)
	}
	s, err := store.Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	render := func(history bool) string {
		ctx := s.BuildContext(s.Leaf())
		if history {
			ctx = s.BuildHistory(s.Leaf())
		}
		return Render(s, ctx, s.Leaf(), &Options{})
	}
	context, history := render(false), render(true)
	for _, want := range []string{
		"Hello again?\n\n▍assistant · omitted from context · ",
		"\nerror: {\"error\":{\"message\":\"'developer' is not one of ['system', 'assistant', 'user', 'function'] - 'messages.0.role'\"",
		"I was about to answer when\n\n▍assistant · omitted from context · ",
		"\nerror: stream disconnected before completion: The server had an error while processing your request.\n",
	} {
		if !strings.Contains(context, want) {
			t.Errorf("the context's view lacks %q:\n%s", want, context)
		}
	}
	for _, want := range []string{
		"Hello again?\n\n▍assistant · gpt-fake · ",
		"\nerror: {\"error\":{\"message\":\"'developer' is not one of",
		"\nerror: stream disconnected before completion: ",
	} {
		if !strings.Contains(history, want) {
			t.Errorf("the history's view lacks %q:\n%s", want, history)
		}
	}
}

// A diff's line of a message the agent added (Codex's AGENTS.md
// instructions and environment) says so, as the tree does: it was "user".
func TestDiffLineMarksContext(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/agentgen/codex/fixtures/plain/codex-home/sessions/*/*/*/*.jsonl")
	if len(paths) != 1 {
		t.Fatalf("rollouts %v", paths)
	}
	s, err := store.Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	injected := 0
	for i := range s.Len() {
		if e := s.Entry(i); e.Kind != model.EntryMessage || !s.EntryMessage(i).Injected {
			continue
		}
		injected++
		if l := MessageLine(s, i); !strings.HasPrefix(l, "user (context): ") {
			t.Errorf("entry %d: %q", i, l)
		}
	}
	if injected == 0 {
		t.Fatal("no context the agent added")
	}
}
