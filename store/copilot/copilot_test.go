package copilot

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/model"
	"skein/store"
)

// fixturesDir holds the session folders Copilot CLI 1.0.102 wrote
// (testdata/agentgen/copilot/README.md): the committed ones, or those a
// cross-check run just made with a fresh seed (AGENTGEN_OUT).
var fixturesDir = formattest.AgentgenDir("copilot")

// scenarioFolder is the one session folder of a scenario.
func scenarioFolder(t *testing.T, scenario string) string {
	t.Helper()
	root := filepath.Join(fixturesDir, scenario, "copilot-home", "session-state")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		if d.IsDir() && IsSession(filepath.Join(root, d.Name())) {
			out = append(out, filepath.Join(root, d.Name()))
		}
	}
	if len(out) != 1 {
		t.Fatalf("%s: %d session folders", scenario, len(out))
	}
	return out[0]
}

func scenarios(t *testing.T) []string {
	t.Helper()
	return formattest.Scenarios(t, fixturesDir, 5)
}

var readJSON = formattest.ReadJSON

// want is what each scenario's session must show, worked out from what
// gen.mjs scripted (texts vary with a seed; counts do not).
var want = map[string]struct {
	users, calls, compactions int
	first                     string
	thinking                  bool
}{
	"plain":     {users: 2, first: "Say hello."},
	"parallel":  {users: 2, calls: 2, first: "Read a.txt and b.txt at once."},
	"reasoning": {users: 2, calls: 1, first: "What number is in n.txt?", thinking: true},
	"subagent":  {users: 2, calls: 2, first: "Ask a sub-agent what c.txt holds."},
	"compact":   {users: 3, calls: 2, compactions: 1, first: "Say hi first."},
}

// TestFixtures lists and opens each session Copilot wrote, through the
// store as the list and the screens do: its record, one branch, every
// tool call followed by its result, thinking where the model gave some,
// the compaction where one was applied.
func TestFixtures(t *testing.T) {
	for _, sc := range scenarios(t) {
		t.Run(sc, func(t *testing.T) {
			dir := scenarioFolder(t, sc)
			b, err := store.Find(dir)
			if err != nil || b.Format() != Format {
				t.Fatalf("Find: %v %v", b.Format(), err)
			}
			files, err := store.Discover([]string{filepath.Dir(dir)})
			if err != nil || len(files) != 1 || files[0] != dir {
				t.Fatalf("Discover: %v %v", files, err)
			}
			infos, problems := store.List(files, nil)
			if len(problems) > 0 || len(infos) != 1 {
				t.Fatalf("List: %v %v", infos, problems)
			}
			info := infos[0]
			w := want[sc]
			if info.Format != Format || info.ID != filepath.Base(dir) || info.Cwd != "/sandbox/proj" ||
				info.FirstMessage != w.first || info.Model != "gpt-fake" || info.Branches != 1 ||
				math.IsNaN(info.Created) || info.Modified < info.Created {
				t.Errorf("record %+v", info)
			}
			s, err := store.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if p := s.Problems(); len(p) > 0 {
				t.Errorf("problems %v", p)
			}
			if tips := s.BranchEnds(); len(tips) != 1 || tips[0] != s.Leaf() {
				t.Errorf("tips %v, leaf %d", tips, s.Leaf())
			}
			checkHistory(t, s, w.users, w.calls, w.thinking)
			st := s.Stats()
			if st.Compactions != w.compactions {
				t.Errorf("compactions %d", st.Compactions)
			}
			if id, err := b.SessionID(dir); err != nil || id != info.ID {
				t.Errorf("SessionID %q %v", id, err)
			}
			prog, args := store.ResumeOf(b, dir)
			if prog != "copilot" || len(args) != 1 || args[0] != "--resume="+info.ID {
				t.Errorf("resume %s %v", prog, args)
			}
		})
	}
}

// checkHistory: the history holds the users' messages, every call is
// followed by its result (before the next user message), and thinking
// shows where the model gave some.
func checkHistory(t *testing.T, s *model.Session, users, calls int, thinking bool) {
	t.Helper()
	ctx := s.BuildHistory(s.Leaf())
	open := map[string]bool{}
	nu, nc, think := 0, 0, false
	for _, m := range ctx.Messages {
		msg := s.Message(m)
		switch msg.Role {
		case model.RoleUser:
			if msg.Injected {
				break // a sub-agent's prompt: its run is under the call
			}
			for id := range open {
				t.Errorf("call %s has no result before the next user message", id)
			}
			nu++
		case model.RoleAssistant:
			for _, b := range msg.Blocks {
				switch b.Type {
				case model.BlockToolCall:
					open[b.Call.ID] = true
					nc++
					if !json.Valid(b.Call.Input) {
						t.Errorf("call input %s", b.Call.Input)
					}
				case model.BlockThinking:
					think = true
				}
			}
		case model.RoleToolResult:
			if !open[msg.ToolCallID] {
				t.Errorf("result %s before its call", msg.ToolCallID)
			}
			if msg.ToolName == "" {
				t.Errorf("result %s has no tool name", msg.ToolCallID)
			}
			delete(open, msg.ToolCallID)
		}
	}
	if len(open) > 0 {
		t.Errorf("calls without results: %v", open)
	}
	if nu != users || nc != calls || think != thinking {
		t.Errorf("users %d calls %d thinking %v", nu, nc, think)
	}
}

// TestStatsTokens: the stats' tokens are what the fake server reported,
// request by request (usage.json), sub-agents and compactions included.
func TestStatsTokens(t *testing.T) {
	for _, sc := range scenarios(t) {
		t.Run(sc, func(t *testing.T) {
			var rows []struct {
				Usage struct{ Input, Output, Cached float64 }
			}
			readJSON(t, filepath.Join(fixturesDir, sc, "usage.json"), &rows)
			var in, out, cached float64
			for _, r := range rows {
				in += r.Usage.Input - r.Usage.Cached
				out += r.Usage.Output
				cached += r.Usage.Cached
			}
			s, err := Open(scenarioFolder(t, sc))
			if err != nil {
				t.Fatal(err)
			}
			st := s.Stats()
			var got model.UsageTotals
			for _, row := range st.ByModel {
				got.AddUsage(row.UsageTotals)
			}
			if got.TokensIn != in || got.TokensOut != out || got.CacheRead != cached {
				t.Errorf("tokens in %v out %v cache %v, server %v %v %v", got.TokensIn, got.TokensOut, got.CacheRead, in, out, cached)
			}
			if st.Incomplete != 0 {
				t.Errorf("incomplete %d", st.Incomplete)
			}
		})
	}
}

// TestParallelResults: Copilot logs parallel results as they finish; the
// failing command (exit 3, which Copilot records as a success) is an
// error with its exit code.
func TestParallelResults(t *testing.T) {
	s, err := Open(scenarioFolder(t, "parallel"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, e := range s.Events {
		if e.Type == TypeToolComplete {
			msg := s.Message(model.ContextMessage{Entry: i})
			got = append(got, msg.ToolCallID+":"+msg.ExitCode)
			if msg.IsError != (msg.ExitCode != "0") || msg.ToolName != "bash" {
				t.Errorf("%+v", msg)
			}
		}
	}
	if len(got) != 2 {
		t.Fatalf("results %v", got)
	}
}

// TestSubagentHidden: a sub-agent's events are in its parent's file,
// marked by agentId; they are in the history, not in the context.
func TestSubagentHidden(t *testing.T) {
	s, err := Open(scenarioFolder(t, "subagent"))
	if err != nil {
		t.Fatal(err)
	}
	d := s.Domain(model.SessionInfo{})
	inHistory, inContext := 0, 0
	for _, m := range d.BuildHistory(d.Leaf()).Messages {
		if s.Events[m.Entry].AgentID != "" {
			inHistory++
		}
	}
	for _, m := range d.BuildContext(d.Leaf()).Messages {
		if s.Events[m.Entry].AgentID != "" {
			inContext++
		}
	}
	if inHistory == 0 || inContext != 0 {
		t.Errorf("sub-agent messages: %d in history, %d in context", inHistory, inContext)
	}
}

func TestWorkspace(t *testing.T) {
	w := ParseWorkspace([]byte("id: abc\ncwd: /home/u/p\nname: \"Fix: the \\\"bug\\\"\"\nuser_named: true\ncreated_at: 2026-12-06T14:00:00.000Z\nsummary: 'it''s'\n"))
	if w.ID != "abc" || w.Cwd != "/home/u/p" || w.Name != `Fix: the "bug"` || !w.UserNamed || w.CreatedAt != "2026-12-06T14:00:00.000Z" {
		t.Errorf("%+v", w)
	}
	if got := yamlScalar("'it''s'"); got != "it's" {
		t.Errorf("%q", got)
	}
}

// TestNotSession: a folder without events, an events file of no events.
func TestNotSession(t *testing.T) {
	dir := t.TempDir()
	if IsSession(dir) || backend.Claims(dir) {
		t.Error("an empty folder claimed")
	}
	if err := os.WriteFile(filepath.Join(dir, EventsFile), []byte("not json\n{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := backend.Open(dir); err == nil {
		t.Error("opened")
	} else if _, ok := err.(*store.NotSession); !ok {
		t.Errorf("%T %v", err, err)
	}
}
