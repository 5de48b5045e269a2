package cursor

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

const transcripts = "../../testdata/cursor/cursor-home/.cursor/projects/home-dev-webapp/agent-transcripts"

func fixture(id string, nested bool) string {
	if nested {
		return filepath.Join(transcripts, id, id+".jsonl")
	}
	return filepath.Join(transcripts, id+".jsonl")
}

// TestFixtures: each hand-made transcript opens with its messages, every
// tool result answers a call, the session is one branch (Cursor has no
// rewind in its transcripts), its sub-agent hangs under its call.
func TestFixtures(t *testing.T) {
	for _, fx := range []struct {
		id                 string
		nested             bool
		messages, results  int
		unanswered, agents int
		first              string
		errText            string
	}{
		{id: "0f1e2d3c-0000-4000-8000-000000000001", nested: true, messages: 4, first: "What does the cache module do?"},
		{id: "0f1e2d3c-0000-4000-8000-000000000002", nested: true, messages: 8, results: 2, unanswered: 1, first: "List the source files and read the missing config.", errText: "User aborted request."},
		{id: "0f1e2d3c-0000-4000-8000-000000000003", nested: true, messages: 3, unanswered: 1, agents: 1, first: "Find where the cache is flushed."},
		{id: "0f1e2d3c-0000-4000-8000-000000000004", messages: 2, first: "hello"},
	} {
		t.Run(fx.id, func(t *testing.T) {
			path := fixture(fx.id, fx.nested)
			o, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(o.Diagnostics) > 0 || len(o.Agents) != fx.agents {
				t.Fatalf("%v %v", o.Diagnostics, o.Agents)
			}
			info := o.Info(path, 1)
			if info.ID != fx.id || info.FirstMessage != fx.first || info.MessageCount != fx.messages || info.Format != Format {
				t.Errorf("%+v", info)
			}
			if fx.nested && !(info.Created > 1e12) {
				t.Errorf("no time from the <timestamp> tags: %v", info.Created)
			}
			d := o.Domain(info)
			ctx := d.BuildContext(d.Leaf())
			var msgs []model.Message
			errs := ""
			for _, m := range ctx.Messages {
				msg := d.Message(m)
				msgs = append(msgs, msg)
				errs += msg.Error
			}
			if errs != fx.errText {
				t.Errorf("errors %q", errs)
			}
			pairs := model.PairTools(msgs)
			calls, results := 0, 0
			for k, m := range msgs {
				calls += len(m.ToolCalls())
				if m.Role == model.RoleToolResult {
					results++
					if j, ok := pairs[m.ToolCallID]; !ok || j != k || m.ToolName == "" {
						t.Errorf("result %d answers no call: %+v", k, m)
					}
				}
			}
			if results != fx.results || calls-len(pairs) != fx.unanswered {
				t.Errorf("%d calls, %d results, %d paired", calls, results, len(pairs))
			}
			// One branch: the session's path holds every entry of its own file.
			own := 0
			for i := range o.Entries {
				if o.Entries[i].File == 0 {
					own++
				}
			}
			if len(ctx.Path) != own {
				t.Errorf("path %d of %d entries", len(ctx.Path), own)
			}
			for i := range o.Entries {
				if e := o.Entries[i]; e.File > 0 && e.parent == -1 {
					t.Errorf("sub-agent entry %d is not under its call", i)
				}
			}
			if st := d.Stats(); st.Tokens() != 0 {
				t.Errorf("tokens %v: Cursor's transcripts have none", st.Tokens())
			}
		})
	}
}

// TestSubagentUnderItsCall: the sub-agent's first entry's parent is the
// Task call's entry, and its file is a part of the session.
func TestSubagentUnderItsCall(t *testing.T) {
	id := "0f1e2d3c-0000-4000-8000-000000000003"
	o, err := Open(fixture(id, true))
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range o.Entries {
		if e.File == 1 {
			p := o.Entries[e.parent]
			if p.File != 0 || p.msg.ToolCalls()[0].Name != "Task" {
				t.Fatalf("parent %+v", p)
			}
			break
		}
		if i == len(o.Entries)-1 {
			t.Fatal("no sub-agent entry")
		}
	}
	agent := filepath.Join(transcripts, id, "subagents", "0f1e2d3c-0000-4000-8000-0000000000a1.jsonl")
	if ParentOf(agent) != fixture(id, true) || backend.PartOf(agent) == nil {
		t.Error("the sub-agent's file is not a part of its session")
	}
	if prog, args := backend.Resume(agent); prog != "cursor-agent" || !slices.Equal(args, []string{"--resume", id}) {
		t.Errorf("%s %q", prog, args)
	}
}

func TestClaimsAndDetect(t *testing.T) {
	formattest.Answers(t, backend.Claims, map[string]bool{
		"/h/.cursor/projects/p/agent-transcripts/a/a.jsonl":                 true,
		"/h/.cursor/projects/p/agent-transcripts/a.jsonl":                   true,
		"/h/.cursor/projects/p/agent-transcripts/a/subagents/b.jsonl":       true,
		"/h/.cursor/projects/p/agent-transcripts/a/b.jsonl":                 false,
		"/h/.cursor/projects/p/agent-transcripts/a.txt":                     false,
		"/h/.claude/projects/-p/8fd7a46f-ec9c-4cd0-8e62-d238d27ff076.jsonl": false,
	})
	formattest.Answers(t, formattest.FirstLine(backend.Detect), map[string]bool{
		`{"role":"user","message":{"content":[{"type":"text","text":"hi"}]}}`:                  true,
		`{"type":"turn_ended","status":"success"}`:                                             true,
		`{"type":"user","uuid":"a","message":{"role":"user","content":"hi"}}`:                  false,
		`{"role":"user","message":{"content":"hi"},"timestamp":"2026-01-01T00:00:00Z"}`:        false,
		`{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`: false,
	})
}

func TestProjectCwd(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "my_app.v2")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	enc := Slug(dir)
	got := ProjectCwd(filepath.Join("/x/.cursor/projects", enc, "agent-transcripts", "a", "a.jsonl"))
	if got != dir {
		t.Errorf("%s: %q, want %q", enc, got, dir)
	}
	if Slug("/home/dev/my_app") != "home-dev-my-app" {
		t.Error(Slug("/home/dev/my_app"))
	}
}

func TestNotSession(t *testing.T) {
	if _, err := Parse([]byte(`{"type":"session","id":"x"}` + "\n")); err != ErrNotSession {
		t.Error(err)
	}
	s, err := Parse([]byte("not json\n" + `{"role":"user","message":{"content":"hi"}}` + "\n"))
	if err != nil || len(s.Diagnostics) != 1 || s.Diagnostics[0].Line != 1 || s.Len() != 1 {
		t.Fatalf("%v %+v", err, s)
	}
}
