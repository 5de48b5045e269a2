package opencode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skein/internal/formattest"
	"skein/model"
	"skein/store"
)

// The databases OpenCode 1.18.33 wrote and the requests it sent when it
// resumed a session (testdata/agentgen/opencode/README.md): the committed
// ones, or those a cross-check run just made (AGENTGEN_OUT).
var agentgen = formattest.AgentgenDir("opencode")

var read = formattest.ReadFile

// scenarios are the fixtures' folders, each with its database copied into
// a folder of the test's own (the committed files are never opened).
func scenarios(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range formattest.Scenarios(t, agentgen, 1) {
		db := filepath.Join(t.TempDir(), DBName)
		if err := os.WriteFile(db, read(t, filepath.Join(agentgen, name, "opencode", DBName)), 0o644); err != nil {
			t.Fatal(err)
		}
		out[name] = db
	}
	return out
}

type steps struct {
	Steps []struct {
		Args    []string `json:"args"`
		Session string   `json:"session"`
	} `json:"steps"`
}

// TestAgentgenContext checks that the context skein builds for a session,
// at the entry before the prompt of its last resume, is what OpenCode sent
// in that resume's first request, less its system prompt and that prompt.
func TestAgentgenContext(t *testing.T) {
	for name, db := range scenarios(t) {
		t.Run(name, func(t *testing.T) {
			var st steps
			if err := json.Unmarshal(read(t, filepath.Join(agentgen, name, "steps.json")), &st); err != nil {
				t.Fatal(err)
			}
			last := st.Steps[len(st.Steps)-1]
			s, err := readSession(db + "#" + last.Session)
			if err != nil {
				t.Fatal(err)
			}
			leaf := -1
			for i := range s.Entries {
				if s.Entry(i).Role == model.RoleUser {
					leaf = i - 1 // the last prompt is the resume's own
				}
			}
			var buf bytes.Buffer
			if err := s.WriteContextJSON(&buf, s.BuildContext(leaf)); err != nil {
				t.Fatal(err)
			}
			var got, req struct{ Messages []any }
			if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(read(t, filepath.Join(agentgen, name, "resume-request.json")), &req); err != nil {
				t.Fatal(err)
			}
			want := req.Messages[1 : len(req.Messages)-1]
			for k := range max(len(want), len(got.Messages)) {
				var w, g []byte
				if k < len(want) {
					w, _ = json.Marshal(want[k])
				}
				if k < len(got.Messages) {
					g, _ = json.Marshal(got.Messages[k])
				}
				if !bytes.Equal(w, g) {
					t.Fatalf("message %d of %d (skein has %d):\n  want %s\n  got  %s", k, len(want), len(got.Messages), w, g)
				}
			}
		})
	}
}

// TestAgentgenFixtures lists and opens every session of every fixture
// through the store: each is listed, opens, has each tool call followed by
// its result, one branch, and the tokens the fake server reported (less
// the title request's, which OpenCode records nowhere); and the database's
// folder is as it was (no -shm, no file touched).
func TestAgentgenFixtures(t *testing.T) {
	for name, db := range scenarios(t) {
		t.Run(name, func(t *testing.T) {
			before := folderState(t, filepath.Dir(db))
			paths, err := store.Discover([]string{filepath.Dir(db)})
			if err != nil || len(paths) == 0 {
				t.Fatalf("discovered %v, %v", paths, err)
			}
			infos, problems := store.List(paths, nil)
			if len(problems) > 0 || len(infos) != len(paths) {
				t.Fatalf("listed %d of %d: %v", len(infos), len(paths), problems)
			}
			var in, out, cached float64
			for _, info := range infos {
				if info.Format != string(Format) || info.Cwd != "/sandbox/proj" || info.MessageCount == 0 || info.ID == "" {
					t.Errorf("record %+v", info)
				}
				if sub := strings.HasSuffix(info.Name, "(@general subagent)"); sub != info.HasParent || sub && !strings.HasPrefix(info.ParentSession, db+"#ses_") {
					t.Errorf("%s (%s): parent %q", info.ID, info.Name, info.ParentSession)
				}
				b, err := store.Find(info.Path)
				if err != nil || b.Format() != Format {
					t.Fatalf("Find %s: %v", info.Path, err)
				}
				s, err := store.Open(info.Path)
				if err != nil {
					t.Fatal(err)
				}
				if ends := s.BranchEnds(); len(ends) != 1 {
					t.Errorf("%d branches", len(ends))
				}
				toolsAnswered(t, s)
				st := s.Stats()
				in += st.TokensIn
				out += st.TokensOut
				cached += st.CacheRead
			}
			var usage []struct {
				Who   string
				Usage struct {
					Prompt     float64 `json:"prompt_tokens"`
					Completion float64 `json:"completion_tokens"`
					Prompt2    struct {
						Cached float64 `json:"cached_tokens"`
					} `json:"prompt_tokens_details"`
				}
			}
			if err := json.Unmarshal(read(t, filepath.Join(agentgen, name, "usage.json")), &usage); err != nil {
				t.Fatal(err)
			}
			var win, wout, wcached float64
			for _, u := range usage {
				if u.Who == "title" {
					continue
				}
				win += u.Usage.Prompt - u.Usage.Prompt2.Cached
				wcached += u.Usage.Prompt2.Cached
				wout += u.Usage.Completion
			}
			if in != win || out != wout || cached != wcached {
				t.Errorf("tokens in %v out %v cached %v; the server reported %v %v %v", in, out, cached, win, wout, wcached)
			}
			if after := folderState(t, filepath.Dir(db)); after != before {
				t.Errorf("the database's folder changed:\n%s\nnow\n%s", before, after)
			}
		})
	}
}

// toolsAnswered checks that each tool call on the session's path is
// followed by its result before the next message that is not a result.
func toolsAnswered(t *testing.T, s *model.Session) {
	t.Helper()
	ctx := s.BuildContext(s.Leaf())
	open := map[string]bool{}
	for _, cm := range ctx.Messages {
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
			}
		}
	}
	if len(open) > 0 {
		t.Errorf("calls %v never answered", open)
	}
}

// folderState is each file of dir with its size and modification time.
func folderState(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d %s\n", e.Name(), fi.Size(), fi.ModTime().Format(time.RFC3339Nano))
	}
	return b.String()
}
