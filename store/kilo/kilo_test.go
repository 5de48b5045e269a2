package kilo_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"skein/internal/formattest"
	"skein/model"
	"skein/store"
	_ "skein/store/formats" // every format, as the list finds them
	"skein/store/kilo"
)

// The databases Kilo CLI 7.7.9 wrote and the requests it sent when it
// resumed a session (testdata/agentgen/kilo/README.md): the committed
// ones, or those a cross-check run just made (AGENTGEN_OUT).
var agentgen = formattest.AgentgenDir("kilo")

var read = formattest.ReadFile

// homes are the fixtures, each as a home of its own whose Kilo data folder
// holds a copy of the database Kilo wrote (the committed files are never
// opened).
func homes(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range formattest.Scenarios(t, agentgen, 2) {
		home := t.TempDir()
		data := filepath.Join(home, ".local", "share", "kilo")
		if err := os.MkdirAll(data, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(data, kilo.DBName), read(t, filepath.Join(agentgen, name, "kilo", kilo.DBName)), 0o644); err != nil {
			t.Fatal(err)
		}
		out[name] = home
	}
	return out
}

// TestAgentgenKilo: Kilo's database, in Kilo's default folder, is listed
// under Kilo's name (a sub-agent's session under its parent's); each
// session opens through OpenCode's reader, has each
// tool call followed by its result, one branch, the tokens the fake server
// reported, resumes with kilo --session ID, and its context at the entry
// before the last resume's prompt is what Kilo sent in that resume's first
// request (less the system prompt and that prompt).
func TestAgentgenKilo(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("KILO_DB", "")
	for name, home := range homes(t) {
		t.Run(name, func(t *testing.T) {
			root := filepath.Join(home, ".local", "share", "kilo")
			if roots := (store.Env{Home: home}).DefaultRoots(); !slices.Contains(roots, root) {
				t.Fatalf("default roots %v lack %s", roots, root)
			}
			files, err := store.Discover([]string{root})
			if err != nil || len(files) == 0 {
				t.Fatalf("discovered %v, %v", files, err)
			}
			infos, problems := store.List(files, nil)
			if len(problems) > 0 || len(infos) != len(files) {
				t.Fatalf("%+v %v", infos, problems)
			}
			var st struct {
				Steps []struct{ Session string }
			}
			if err := json.Unmarshal(read(t, filepath.Join(agentgen, name, "steps.json")), &st); err != nil {
				t.Fatal(err)
			}
			var stats model.Stats
			calls, main := 0, 0
			for _, in := range infos {
				if in.Format != string(kilo.Format) || store.AgentOf(in) != "Kilo CLI" || in.Cwd != "/sandbox/proj" || in.MessageCount == 0 {
					t.Fatalf("%+v (agent %s)", in, store.AgentOf(in))
				}
				if in.HasParent != (in.ID != st.Steps[0].Session) || in.HasParent && in.ParentSession != filepath.Join(root, kilo.DBName)+"#"+st.Steps[0].Session {
					t.Errorf("%s: parent %q", in.ID, in.ParentSession)
				}
				b := store.Of(in)
				if f, err := store.Find(in.Path); err != nil || f.Format() != kilo.Format {
					t.Fatalf("Find %s: %v", in.Path, err)
				}
				s, err := b.Open(in.Path)
				if err != nil || s.Info.Format != string(kilo.Format) {
					t.Fatalf("%v %+v", err, s)
				}
				if ends := s.BranchEnds(); len(ends) != 1 {
					t.Errorf("%d branches", len(ends))
				}
				calls += toolsAnswered(t, s)
				ss := s.Stats()
				stats.TokensIn += ss.TokensIn
				stats.TokensOut += ss.TokensOut
				stats.CacheRead += ss.CacheRead
				if prog, args := store.ResumeOf(b, in.Path); prog != "kilo" || !slices.Equal(args, []string{"--session", in.ID}) {
					t.Errorf("resume %s %q", prog, args)
				}
				if !store.AgentIs(b, "kilo") {
					t.Error("the agent filter does not name it")
				}
				if in.ID == st.Steps[len(st.Steps)-1].Session {
					main++
					checkContext(t, s, filepath.Join(agentgen, name, "resume-request.json"))
				}
			}
			if main != 1 {
				t.Errorf("the resumed session %s listed %d times", st.Steps[len(st.Steps)-1].Session, main)
			}
			if want := map[string]int{"parallel": 2, "thinking": 1, "subagent": 2}[name]; calls != want {
				t.Errorf("%d tool calls, want %d", calls, want)
			}
			checkTokens(t, stats, filepath.Join(agentgen, name, "usage.json"))
		})
	}
}

// toolsAnswered checks that each tool call on the session's path is
// followed by its result before the next message that is not a result,
// and counts the calls.
func toolsAnswered(t *testing.T, s *model.Session) int {
	t.Helper()
	open := map[string]bool{}
	n := 0
	for _, cm := range s.BuildContext(s.Leaf()).Messages {
		m := s.Message(cm)
		if m.Role == model.RoleToolResult {
			if !open[m.ToolCallID] {
				t.Errorf("result of %s answers no open call", m.ToolCallID)
			}
			delete(open, m.ToolCallID)
			continue
		}
		if len(open) > 0 {
			t.Errorf("calls %v not answered before a %s message", open, m.Role)
		}
		for _, b := range m.Blocks {
			if b.Type == model.BlockToolCall {
				open[b.Call.ID] = true
				n++
			}
		}
	}
	if len(open) > 0 {
		t.Errorf("calls %v never answered", open)
	}
	return n
}

// checkTokens: the session's tokens are the usage the fake server
// reported (Kilo makes no title request of this model).
func checkTokens(t *testing.T, st model.Stats, usagePath string) {
	t.Helper()
	var usage []struct {
		Who   string
		Usage struct {
			Prompt     float64 `json:"prompt_tokens"`
			Completion float64 `json:"completion_tokens"`
			Details    struct {
				Cached float64 `json:"cached_tokens"`
			} `json:"prompt_tokens_details"`
		}
	}
	if err := json.Unmarshal(read(t, usagePath), &usage); err != nil {
		t.Fatal(err)
	}
	var in, out, cached float64
	for _, u := range usage {
		if u.Who == "title" {
			continue
		}
		in += u.Usage.Prompt - u.Usage.Details.Cached
		cached += u.Usage.Details.Cached
		out += u.Usage.Completion
	}
	if st.TokensIn != in || st.TokensOut != out || st.CacheRead != cached || in == 0 {
		t.Errorf("tokens in %v out %v cached %v; the server reported %v %v %v", st.TokensIn, st.TokensOut, st.CacheRead, in, out, cached)
	}
}

// checkContext compares skein's context before the last prompt with the
// messages of the request Kilo sent on resume, between its system prompt
// and that prompt.
func checkContext(t *testing.T, s *model.Session, reqPath string) {
	t.Helper()
	leaf := -1
	for i := range s.Len() {
		if s.Entry(i).Role == model.RoleUser {
			leaf = i - 1 // the last prompt is the resume's own
		}
	}
	var buf bytes.Buffer
	if err := s.WriteContextJSON(&buf, s.BuildContext(leaf)); err != nil {
		t.Fatal(err)
	}
	var got, req struct{ Messages []json.RawMessage }
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(read(t, reqPath), &req); err != nil {
		t.Fatal(err)
	}
	want := req.Messages[1 : len(req.Messages)-1]
	if len(want) == 0 {
		t.Fatal("the request holds no messages before the prompt")
	}
	for k := range max(len(want), len(got.Messages)) {
		var w, g []byte
		if k < len(want) {
			w = compact(t, want[k])
		}
		if k < len(got.Messages) {
			g = compact(t, got.Messages[k])
		}
		if !bytes.Equal(w, g) {
			t.Fatalf("message %d of %d (skein has %d):\n  want %s\n  got  %s", k, len(want), len(got.Messages), w, g)
		}
	}
}

func compact(t *testing.T, raw []byte) []byte {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return b
}

func TestKiloDB(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{nil, "/h/.local/share/kilo/kilo.db"},
		{map[string]string{"XDG_DATA_HOME": "/x"}, "/x/kilo/kilo.db"},
		{map[string]string{"KILO_DB": "/d/my.db"}, "/d/my.db"},
		{map[string]string{"KILO_DB": "other.db"}, "/h/.local/share/kilo/other.db"},
	} {
		if got := kilo.DB(env(c.env), "/h"); got != c.want {
			t.Errorf("%v: %s, want %s", c.env, got, c.want)
		}
	}
}

// TestKiloClaims: Kilo's databases (kilo.db, a channel's kilo-<channel>.db,
// the one $KILO_DB names) and its data folder's older files are Kilo's;
// OpenCode's are OpenCode's; $KILO_DB's folder is a default root.
func TestKiloClaims(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("KILO_DB", "/d/my.db")
	for p, want := range map[string]store.Format{
		"/h/.local/share/kilo/kilo.db#ses_1":                         kilo.Format,
		"/h/.local/share/kilo/kilo-beta2.db#ses_1":                   kilo.Format,
		"/d/my.db#ses_1":                                             kilo.Format,
		"/h/.local/share/kilo/storage/session/global/ses_1.json":     kilo.Format,
		"/h/.local/share/opencode/opencode.db#ses_1":                 "opencode",
		"/h/.local/share/opencode/storage/session/global/ses_1.json": "opencode",
	} {
		b, err := store.Find(p)
		if err != nil || b.Format() != want {
			t.Errorf("%s: %v %v, want %s", p, b, err, want)
		}
	}
	if roots := (store.Env{Home: "/h"}).DefaultRoots(); !slices.Contains(roots, "/h/.local/share/kilo") || !slices.Contains(roots, "/d") {
		t.Errorf("default roots %v", roots)
	}
	b := store.ForFormat(kilo.Format)
	if prog, args := store.ResumeOf(b, "/h/.local/share/kilo/storage/session/global/ses_1.json"); prog != "kilo" || !slices.Equal(args, []string{"--session", "ses_1"}) {
		t.Errorf("resume %s %q", prog, args)
	}
}
