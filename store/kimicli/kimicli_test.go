package kimicli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skein/export"
	"skein/internal/formattest"
	"skein/model"
	"skein/store"
	"skein/store/convert"
	"skein/store/kimicli"
	"skein/store/pi"
)

// The hand-made sessions of testdata/agentgen/kimicli (its README says
// how they were made): a plain turn and a resume, and a step with two
// calls, one failing.
var fixtures = filepath.Join("..", "..", "testdata", "agentgen", "kimicli", "fixtures")

var ids = map[string]string{
	"plain-resume": "5f0c9a52-1d7e-4c1b-9e8a-2b6f3c4d5e01",
	"tools":        "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c02",
}

func wire(t *testing.T, sc string) string {
	t.Helper()
	return formattest.OneFile(t, filepath.Join(fixtures, sc, "kimi-share", "sessions", "*", "*", "wire.jsonl"))
}

// TestSessions: each session found under its share folder's sessions and
// listed (id, cwd from kimi.json, first prompt), opened without a
// diagnostic, every call followed by its result, one branch, the stats'
// tokens equal to what the server reported, and the CLI's own resume
// command.
func TestSessions(t *testing.T) {
	b := store.ForFormat(kimicli.FormatKimiCLI)
	if b == nil {
		t.Fatal("kimicli not registered")
	}
	prompts := map[string]string{"plain-resume": "Say hello", "tools": "List the files and read missing.txt"}
	for sc, id := range ids {
		t.Run(sc, func(t *testing.T) {
			path := wire(t, sc)
			formattest.Recognized(t, path, b.Claims, b.Detect, kimicli.Sniff)
			root := kimicli.SessionsDir(func(k string) string {
				if k == "KIMI_SHARE_DIR" {
					return filepath.Join(fixtures, sc, "kimi-share")
				}
				return ""
			}, "/nowhere", nil)
			if got, _ := filepath.Glob(filepath.Join(root, "*", "*", "wire.jsonl")); len(got) != 1 || got[0] != path {
				t.Errorf("under %s: %v", root, got)
			}
			_, info, err := b.ListInfo(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if info.ID != id || info.Cwd != "/sandbox/proj" || info.FirstMessage != prompts[sc] || info.MessageCount == 0 || info.Created == 0 {
				t.Errorf("info %+v", info)
			}
			if got, err := b.SessionID(path); got != id || err != nil {
				t.Errorf("SessionID %q %v", got, err)
			}
			r, ok := b.(store.Resumer)
			if !ok {
				t.Fatal("no Resumer")
			}
			if name, args := r.Resume(path); name != "kimi" || strings.Join(args, " ") != "--session "+id {
				t.Errorf("resume %s %v", name, args)
			}
			d, err := b.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			s := d.Source.(*kimicli.Session)
			formattest.NoDiagnostics(t, s)
			if ends := d.BranchEnds(); len(ends) != 1 {
				t.Errorf("%d branch ends", len(ends))
			}
			msgs := formattest.Messages[model.ContextMessage, model.Message](s, s.BuildContext(s.Leaf()))
			calls := formattest.CallsAnswered(t, msgs, model.PairTools(msgs))
			formattest.OpenAIStats(t, s.Stats(), filepath.Join(fixtures, sc, "usage.json"), len(calls))
		})
	}
}

// TestTools: the step's two calls with their arguments (the second's
// completed by its ToolCallPart), the failing one's result an error
// carrying the tool's message, the thinking of the plain turn.
func TestTools(t *testing.T) {
	s, err := kimicli.Open(wire(t, "tools"))
	if err != nil {
		t.Fatal(err)
	}
	msgs := formattest.Messages[model.ContextMessage, model.Message](s, s.BuildContext(s.Leaf()))
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, " ") != "user assistant toolResult toolResult assistant" {
		t.Fatalf("roles %v", roles)
	}
	a := msgs[1]
	if len(a.Blocks) != 3 || a.Text("") != "Looking." || a.Usage == nil || a.Usage.Input != 300 || a.Usage.Output != 40 {
		t.Fatalf("assistant %+v", a)
	}
	if c := a.Blocks[2].Call; c.ID != "call_2" || c.Name != "ReadFile" || string(c.Input) != `{"path": "missing.txt"}` {
		t.Errorf("second call %+v %s", c, c.Input)
	}
	if r := msgs[3]; !r.IsError || r.ToolName != "ReadFile" || r.Text("") != "`missing.txt` does not exist." {
		t.Errorf("failed result %+v", r)
	}
	if r := msgs[2]; r.IsError || r.Text("") != "a.txt\nb.txt\n" || r.ToolName != "Shell" {
		t.Errorf("ok result %+v", r)
	}
	p, err := kimicli.Open(wire(t, "plain-resume"))
	if err != nil {
		t.Fatal(err)
	}
	pm := formattest.Messages[model.ContextMessage, model.Message](p, p.BuildContext(p.Leaf()))
	if len(pm) != 4 || pm[1].Blocks[0].Type != model.BlockThinking || pm[1].Blocks[0].Text != "A greeting." || pm[2].Text("") != "And again" {
		t.Errorf("plain %+v", pm)
	}
}

// TestExportImport: each session exports to Markdown holding its turns,
// and imports into a pi file that pi's reader opens, resuming with as many
// messages as the session's context.
func TestExportImport(t *testing.T) {
	for sc := range ids {
		src := wire(t, sc)
		if f, err := convert.GuessFormat(src); err != nil || f != kimicli.Format {
			t.Fatalf("%s: guessed %q %v", sc, f, err)
		}
		d, err := store.Open(src)
		if err != nil {
			t.Fatal(err)
		}
		var md bytes.Buffer
		if err := export.Markdown(&md, d, export.Options{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(md.String(), d.Info.FirstMessage) {
			t.Errorf("%s: export lacks the first prompt:\n%s", sc, md.String())
		}
		want := len(d.BuildContext(d.Leaf()).Messages)
		r, err := convert.ImportFile(src, convert.Options{Format: kimicli.Format, To: "pi", Out: filepath.Join(t.TempDir(), "pi"), Now: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pi.Open(r[0].Path); err != nil {
			t.Fatal(err)
		}
		got, err := store.Open(r[0].Path)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(got.BuildContext(got.Leaf()).Messages); n != want {
			t.Errorf("%s: %d messages, the import %d", sc, want, n)
		}
	}
}

// TestGuessElsewhere: a wire copied out of the CLI's folder is still
// told a legacy Kimi CLI wire by its lines, not Kimi Code's (whose
// metadata line is alike but for created_at).
func TestGuessElsewhere(t *testing.T) {
	data, err := os.ReadFile(wire(t, "tools"))
	if err != nil {
		t.Fatal(err)
	}
	if f := store.Detect(data); f != kimicli.FormatKimiCLI {
		t.Errorf("detected %q", f)
	}
	p := filepath.Join(t.TempDir(), "x.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if f, err := convert.GuessFormat(p); err != nil || f != kimicli.Format {
		t.Errorf("guessed %q %v", f, err)
	}
}

// TestContextFile: the wire's messages are what context.jsonl, the file
// the CLI resumes from, holds (no /undo or compaction in the fixtures):
// the same roles in order, the same text, the same calls.
func TestContextFile(t *testing.T) {
	for sc := range ids {
		path := wire(t, sc)
		s, err := kimicli.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		data, err := os.ReadFile(filepath.Join(filepath.Dir(path), "context.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			var m struct {
				Role      string
				ToolCalls []struct{ ID string } `json:"tool_calls"`
			}
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(m.Role, "_") {
				continue
			}
			r := map[string]string{"tool": model.RoleToolResult}[m.Role]
			if r == "" {
				r = m.Role
			}
			want = append(want, r+"/"+itoa(len(m.ToolCalls)))
		}
		var got []string
		for _, m := range formattest.Messages[model.ContextMessage, model.Message](s, s.BuildContext(s.Leaf())) {
			n := 0
			for _, b := range m.Blocks {
				if b.Type == model.BlockToolCall {
					n++
				}
			}
			got = append(got, m.Role+"/"+itoa(n))
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: wire %v, context.jsonl %v", sc, got, want)
		}
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

// TestListedAlone: under a home's ~/.kimi (a default root), the list has
// the session's wire alone: its context.jsonl, a rotated context_1.jsonl
// and a sub-agent's subagents/<id>/ wire and context are parts of it,
// not sessions (nor problems).
func TestListedAlone(t *testing.T) {
	home := t.TempDir()
	src := wire(t, "tools")
	rel, _ := filepath.Rel(filepath.Join(fixtures, "tools", "kimi-share"), src)
	dir := filepath.Dir(filepath.Join(home, ".kimi", rel))
	data := formattest.ReadFile(t, src)
	ctx := formattest.ReadFile(t, filepath.Join(filepath.Dir(src), "context.jsonl"))
	for name, b := range map[string][]byte{
		"wire.jsonl": data, "context.jsonl": ctx, "context_1.jsonl": ctx,
		"subagents/a1b2c3/wire.jsonl": data, "subagents/a1b2c3/context.jsonl": ctx,
	} {
		formattest.Put(t, filepath.Join(dir, name), b)
	}
	formattest.Put(t, filepath.Join(home, ".kimi", "kimi.json"), formattest.ReadFile(t, filepath.Join(fixtures, "tools", "kimi-share", "kimi.json")))
	root := filepath.Join(home, ".kimi", "sessions")
	in := formattest.Listed(t, store.Discover, store.List, store.Env{Home: home}.DefaultRoots(), root, 1)[0]
	if in.Path != filepath.Join(dir, "wire.jsonl") || in.Format != kimicli.Format || in.Cwd != "/sandbox/proj" {
		t.Errorf("listed %+v", in)
	}
}
