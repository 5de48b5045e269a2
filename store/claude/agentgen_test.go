package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"skein/internal/formattest"
)

// The sessions Claude Code 2.1.332 wrote and the requests it sent
// (testdata/agentgen/claude/README.md): the committed fixtures, or those
// a cross-check run just made with a fresh seed (AGENTGEN_OUT,
// testdata/agentgen/crosscheck.sh).
var agentgen = formattest.AgentgenDir("claude")

// differs names the requests whose messages skein does not rebuild yet,
// with why: the test logs their first difference, and fails once one is
// equal (take it off the list then).
var differs = map[string]string{}

// agentgenFixture is one scenario: its session files (by path under the
// scenario's folder) and its requests as the fake server logged them.
type agentgenFixture struct {
	dir      string
	files    map[string][]byte
	requests []agentgenRequest
	resume   int // the seq of the request resume-request.json holds
}

type agentgenRequest struct {
	Seq      int
	Purpose  string
	Reply    string
	LoggedAs *struct{ ID string }
	Body     struct{ Messages []map[string]any }
}

func readAgentgen(t *testing.T, name string) agentgenFixture {
	t.Helper()
	f := agentgenFixture{dir: filepath.Join(agentgen, name), files: map[string][]byte{}, resume: -1}
	err := filepath.WalkDir(filepath.Join(f.dir, "home"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(f.dir, p)
			f.files[filepath.ToSlash(rel)] = read(t, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var resume struct{ Messages []map[string]any }
	formattest.ReadJSON(t, filepath.Join(f.dir, "resume-request.json"), &resume)
	want, _ := json.Marshal(resume.Messages)
	for _, ln := range bytes.Split(read(t, filepath.Join(f.dir, "requests.jsonl")), []byte{'\n'}) {
		if len(ln) == 0 {
			continue
		}
		var r agentgenRequest
		if err := json.Unmarshal(ln, &r); err != nil {
			t.Fatal(err)
		}
		if got, _ := json.Marshal(r.Body.Messages); bytes.Equal(got, want) {
			f.resume = r.Seq
		}
		f.requests = append(f.requests, r)
	}
	if f.resume < 0 {
		t.Fatalf("%s: resume-request.json is none of requests.jsonl", name)
	}
	return f
}

func agentgenScenarios(t *testing.T) []string {
	t.Helper()
	return formattest.Scenarios(t, agentgen, 0)
}

var read = formattest.ReadFile

// sessionFiles are the fixture's session files (not a sub-agent's).
func (f *agentgenFixture) sessionFiles() []string {
	var out []string
	for p := range f.files {
		if strings.HasSuffix(p, ".jsonl") && !IsAgentFileName(filepath.Base(p)) {
			out = append(out, p)
		}
	}
	return out
}

// parse is the session of file p as Claude Code read it when it sent the
// request logged as id: p cut before the api-request line Claude Code
// wrote for it (every line before that was written before the request
// was sent), with the session's sub-agents' files (none for a sub-agent's
// file). "" for id: p whole.
func (f *agentgenFixture) parse(t *testing.T, p, id string) *Session {
	t.Helper()
	data := f.files[p]
	if id != "" {
		at := bytes.Index(data, []byte(`"type":"api-request","sessionId":`))
		for at >= 0 {
			start := bytes.LastIndexByte(data[:at], '\n') + 1
			end := start + bytes.IndexByte(data[start:], '\n')
			if bytes.Contains(data[start:end], []byte(`"id":"`+id+`"`)) {
				data = data[:start]
				break
			}
			next := bytes.Index(data[end:], []byte(`"type":"api-request","sessionId":`))
			if next < 0 {
				t.Fatalf("%s: no api-request %s", p, id)
			}
			at = end + next
		}
	}
	stem := strings.TrimSuffix(p, ".jsonl") + "/"
	var agents []AgentFile
	for q, b := range f.files {
		if !IsAgentFileName(filepath.Base(p)) && strings.HasPrefix(q, stem) && strings.HasSuffix(q, ".jsonl") {
			agents = append(agents, AgentFile{Name: strings.TrimPrefix(q, filepath.Dir(p)+"/"), Data: b,
				Meta: f.files[strings.TrimSuffix(q, ".jsonl")+".meta.json"]})
		}
	}
	s, err := ParseFiles(data, agents)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestAgentgenContext checks that the context skein builds at the leaf of
// a log, cut to the lines Claude Code had written when it sent a request,
// is that request's messages, normalized as the README's "What skein's
// context leaves out" says (agentgenNormal). Every request Claude Code
// logged is checked: the main conversation's in its session file (the
// resume's among them), a sub-agent's in the agent's file, read alone.
// The compaction's own summary request is not logged.
func TestAgentgenContext(t *testing.T) {
	for _, name := range agentgenScenarios(t) {
		f := readAgentgen(t, name)
		attached := f.rendered()
		for _, r := range f.requests {
			if r.LoggedAs == nil || r.LoggedAs.ID == "" {
				continue
			}
			p := f.fileOf(r.LoggedAs.ID)
			if p == "" {
				t.Errorf("%s: request %d: no file logs %s", name, r.Seq, r.LoggedAs.ID)
				continue
			}
			label := fmt.Sprintf("%s/%d", name, r.Seq)
			if r.Seq == f.resume {
				label += "-resume"
			}
			t.Run(label, func(t *testing.T) {
				s := f.parse(t, p, r.LoggedAs.ID)
				var got struct{ Messages []map[string]any }
				formattest.LeafContextJSON(t, s, &got)
				diff := formattest.FirstDiff("message", agentgenNormal(r.Body.Messages, attached), agentgenNormal(got.Messages, attached), 600)
				formattest.KnownDiff(t, "differs", differs, label, diff)
			})
		}
	}
}

// fileOf is the file (a session's or a sub-agent's) that logs the
// api-request id, "".
func (f *agentgenFixture) fileOf(id string) string {
	for p := range f.files {
		if bytes.Contains(f.files[p], []byte(`"type":"api-request","sessionId":`)) && bytes.Contains(f.files[p], []byte(`"id":"`+id+`"`)) {
			return p
		}
	}
	return ""
}

// rendered are the texts Claude Code made of the fixture's attachment
// records (their rendered[].content), which it sends and skein does not.
func (f *agentgenFixture) rendered() map[string]bool {
	out := map[string]bool{}
	for p, data := range f.files {
		if !strings.HasSuffix(p, ".jsonl") {
			continue
		}
		for _, ln := range bytes.Split(data, []byte{'\n'}) {
			var rec struct {
				Type     string
				Rendered []struct{ Content string }
			}
			if json.Unmarshal(ln, &rec) != nil || rec.Type != "attachment" {
				continue
			}
			for _, r := range rec.Rendered {
				out[r.Content] = true
			}
		}
	}
	return out
}

// agentgenNormal is a list of messages as the test compares them: no
// system message (the environment and the listings Claude Code makes of
// attachments), no cache_control, a string content as its one text
// block, no text block that is an attachment's rendered text (with or
// without the line end Claude Code adds where it merges two user
// messages), and no user message left empty by that.
func agentgenNormal(msgs []map[string]any, attached map[string]bool) []map[string]any {
	var out []map[string]any
	for _, m := range msgs {
		if m["role"] == "system" {
			continue
		}
		m = dropCacheControl(m).(map[string]any)
		blocks, ok := m["content"].([]any)
		if s, isStr := m["content"].(string); isStr {
			blocks, ok = []any{map[string]any{"type": "text", "text": s}}, true
		}
		if ok {
			var kept []any
			for _, b := range blocks {
				bm, _ := b.(map[string]any)
				if t, isText := bm["text"].(string); isText && bm["type"] == "text" && (attached[t] || attached[strings.TrimSuffix(t, "\n")]) {
					continue
				}
				kept = append(kept, b)
			}
			if len(kept) == 0 && m["role"] == "user" {
				continue
			}
			m["content"] = kept
		}
		out = append(out, m)
	}
	return out
}

func dropCacheControl(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k != "cache_control" {
				out[k] = dropCacheControl(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = dropCacheControl(e)
		}
		return out
	}
	return v
}

// TestAgentgenTree checks every session Claude Code wrote (none of them
// rewound) is one branch, in the list and in the stats, has no problem
// for doctor to report, and that on the
// path to its leaf every tool call is answered before the next reply:
// parallel calls' results, each a line whose parent is its call's block,
// are one chain in file order (findings 1 and 2), not a branch each.
func TestAgentgenTree(t *testing.T) {
	for _, name := range agentgenScenarios(t) {
		f := readAgentgen(t, name)
		for _, p := range f.sessionFiles() {
			t.Run(name+"/"+filepath.Base(p), func(t *testing.T) {
				s := f.parse(t, p, "")
				if got := s.Info(p, 0).Branches; got != 1 {
					t.Errorf("%d branches in the list, want 1", got)
				}
				if got := s.Stats().Leaves; got != 1 {
					t.Errorf("%d leaves in the stats, want 1", got)
				}
				if got := len(s.BranchEnds()) - len(s.Agents); got != 1 {
					t.Errorf("%d branch ends of the main conversation, want 1", got)
				}
				if why := unanswered(s, s.Leaf()); why != "" {
					t.Error(why)
				}
				if len(s.Diagnostics) != 0 {
					t.Errorf("doctor would report %v", s.Diagnostics)
				}
			})
		}
	}
}

// unanswered is the first tool call on the path to leaf whose result does
// not come before the next reply, "" when every call has its result.
func unanswered(s *Session, leaf int) string {
	ctx := s.BuildHistory(leaf)
	open := map[string]bool{}
	for _, m := range ctx.Messages {
		msg := s.Message(m)
		switch msg.Role {
		case "assistant":
			for id := range open {
				return fmt.Sprintf("call %s has no result before the reply of entry %s", id, s.Entries[m.Entry].ID)
			}
			for _, b := range msg.Blocks {
				if b.Call.ID != "" {
					open[b.Call.ID] = true
				}
			}
		case "toolResult":
			delete(open, msg.ToolCallID)
		}
	}
	for id := range open {
		return fmt.Sprintf("call %s has no result on the path", id)
	}
	return ""
}

// TestAgentgenTokens checks each session's tokens are the usage the fake
// server reported for the replies of the runs that wrote it (runs.json):
// the main conversation's and its sub-agents' (every purpose but
// "compact": the compaction's summary reply is not in the log, only the
// summary Claude Code made of it). Every block line of one reply carries
// the whole usage (finding 3), and a fork's copies of its source's
// replies were paid for by the source, so each reply counts once, in the
// session that asked for it.
func TestAgentgenTokens(t *testing.T) {
	for _, name := range agentgenScenarios(t) {
		f := readAgentgen(t, name)
		var runs []struct {
			SessionID string
			Requests  []int
		}
		formattest.ReadJSON(t, filepath.Join(f.dir, "runs.json"), &runs)
		var usage []struct {
			Seq     int
			Purpose string
			Usage   struct {
				Input      float64 `json:"input_tokens"`
				Output     float64 `json:"output_tokens"`
				CacheRead  float64 `json:"cache_read_input_tokens"`
				CacheWrite float64 `json:"cache_creation_input_tokens"`
			}
		}
		formattest.ReadJSON(t, filepath.Join(f.dir, "usage.json"), &usage)
		for _, p := range f.sessionFiles() {
			t.Run(name+"/"+filepath.Base(p), func(t *testing.T) {
				id := strings.TrimSuffix(filepath.Base(p), ".jsonl")
				var want [4]float64
				for _, r := range runs {
					if r.SessionID != id {
						continue
					}
					for _, u := range usage {
						if u.Purpose != "compact" && slices.Contains(r.Requests, u.Seq) {
							want[0] += u.Usage.Input
							want[1] += u.Usage.Output
							want[2] += u.Usage.CacheRead
							want[3] += u.Usage.CacheWrite
						}
					}
				}
				st := f.parse(t, p, "").Stats()
				if got := [4]float64{st.TokensIn, st.TokensOut, st.CacheRead, st.CacheWrite}; got != want {
					t.Errorf("tokens in, out, cache read, cache write: %v, want %v", got, want)
				}
			})
		}
	}
}

// TestAgentgenFork: the fork's list record names its source's file, the
// source's names none (finding 8: the fork's copies of the source's
// replies keep its id as requestSessionId).
func TestAgentgenFork(t *testing.T) {
	f := readAgentgen(t, "fork")
	dir := "home/.claude/projects/-sandbox-project/"
	// The two sessions' ids, from the runs (a fresh seed makes new ones).
	var runs []struct{ Label, SessionID string }
	formattest.ReadJSON(t, filepath.Join(f.dir, "runs.json"), &runs)
	ids := map[string]string{}
	for _, r := range runs {
		ids[r.Label] = r.SessionID
	}
	if ids["first"] == "" || ids["fork"] == "" || ids["first"] == ids["fork"] {
		t.Fatalf("runs.json: %v", ids)
	}
	for file, want := range map[string]string{
		ids["fork"] + ".jsonl":  dir + ids["first"] + ".jsonl",
		ids["first"] + ".jsonl": "",
	} {
		info := f.parse(t, dir+file, "").Info(dir+file, 0)
		if info.ParentSession != want || info.HasParent != (want != "") {
			t.Errorf("%s: parent %q (%v), want %q", file, info.ParentSession, info.HasParent, want)
		}
	}
}
