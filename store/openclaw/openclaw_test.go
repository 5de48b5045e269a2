package openclaw_test

import (
	"path/filepath"
	"slices"
	"testing"

	"skein/internal/formattest"
	"skein/model"
	"skein/store"
	_ "skein/store/formats" // every format, as the list finds them
	"skein/store/openclaw"
)

const home = "../../testdata/openclaw/openclaw-home"

// TestListedAsOpenClaw: OpenClaw's folder is a default root; its pi files
// are listed and opened by pi's reader under OpenClaw's name (the agent
// column says OpenClaw, not pi), every tool call has its result, and each
// resumes in OpenClaw's terminal UI by its session key.
func TestListedAsOpenClaw(t *testing.T) {
	t.Setenv("OPENCLAW_STATE_DIR", "")
	abs, _ := filepath.Abs(home)
	root := filepath.Join(abs, ".openclaw", "agents")
	infos := formattest.Listed(t, store.Discover, store.List, store.Env{Home: abs}.DefaultRoots(), root, 2)
	keys := map[string]string{
		"019cb3ff-9f00-75a9-b935-ef0a4c00fbb4":          "agent:main:main",
		"01a20786-bb40-7073-b4f8-fa5ca681fc1b-topic-42": "agent:main:telegram:group:-100123:topic:42",
	}
	for _, in := range infos {
		b := store.Of(in)
		if in.Format != string(openclaw.Format) || store.AgentOf(in) != "OpenClaw" || in.Cwd == "" || in.MessageCount == 0 {
			t.Errorf("%s: %+v (agent %s)", in.Path, in, store.AgentOf(in))
		}
		s, err := b.Open(in.Path)
		if err != nil {
			t.Fatal(err)
		}
		if s.Info.Format != string(openclaw.Format) {
			t.Errorf("%s: opened as %q", in.Path, s.Info.Format)
		}
		msgs := formattest.Messages(s, s.BuildContext(s.Leaf()))
		pairs := model.PairTools(msgs)
		for _, m := range msgs {
			for _, c := range m.ToolCalls() {
				if _, ok := pairs[c.ID]; !ok {
					t.Errorf("%s: call %s has no result", in.Path, c.ID)
				}
			}
		}
		prog, args := store.ResumeOf(b, in.Path)
		id := filepath.Base(in.Path[:len(in.Path)-len(".jsonl")])
		if prog != "openclaw" || !slices.Equal(args, []string{"tui", "--session", keys[id]}) {
			t.Errorf("%s: resume %s %q", id, prog, args)
		}
		if _, ok := store.Importer(b); !ok || store.Can(b, store.ActFork) {
			t.Errorf("%s: not read-only and importable", in.Path)
		}
	}
}

func TestClaims(t *testing.T) {
	b, _ := store.Find(filepath.Join(home, ".openclaw", "agents", "main", "sessions", "019cb3ff-9f00-75a9-b935-ef0a4c00fbb4.jsonl"))
	if b.Format() != openclaw.Format {
		t.Fatalf("found as %s", b.Format())
	}
	formattest.Answers(t, openclaw.IsTranscriptPath, map[string]bool{
		"/h/.openclaw/agents/main/sessions/abc.jsonl":          true,
		"/s/agents/coder/sessions/abc-topic-7.jsonl":           true,
		"/h/.openclaw/agents/main/sessions/sessions.json":      false,
		"/h/.openclaw/agents/main/sessions/old/abc.jsonl":      false,
		"/h/.pi/agent/sessions/--home-x--/2026_abc.jsonl":      false,
		"/h/.openclaw/agents/main/sessions/abc.jsonl.bak-1234": false,
	})
}

func TestStateDir(t *testing.T) {
	e := func(p string) string { return filepath.Join("/w", p) }
	if got := openclaw.StateDir(func(string) string { return "" }, "/h", e); got != "/h/.openclaw" {
		t.Error(got)
	}
	if got := openclaw.StateDir(func(string) string { return "st" }, "/h", e); got != "/w/st" {
		t.Error(got)
	}
}
