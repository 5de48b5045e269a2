package cline

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// agentgen is where Cline CLI 3.0.65 wrote its fixtures
// (testdata/agentgen/cline), or AGENTGEN_OUT/cline for a fresh run.
var agentgen = formattest.AgentgenSteps[formattest.Step]("cline")

// TestAgentgen checks skein against what Cline itself wrote and sent, per
// scenario: the session opened with its record, every call followed by its
// result (a sub-agent's too, under its spawn_agent call), one branch, the
// stats' tokens equal to what the fake server reported, and the context
// skein builds from the file cut where the resume began equal to the
// messages of Cline's resume request (less its system prompt and the new
// prompt).
func TestAgentgen(t *testing.T) {
	for _, sc := range agentgen.Scenarios(t) {
		dir, steps := sc.Dir, sc.Steps
		t.Run(sc.Name, func(t *testing.T) {
			id := steps[0].Session
			path := filepath.Join(dir, "cline-home", "data", "sessions", id, id+MessagesSuffix)
			if !IsSessionFile(path) {
				t.Fatalf("%s not claimed", path)
			}
			s := formattest.OpenClean(t, Open, path)
			info := s.Info(path, 0)
			if info.ID != id || info.Cwd != "/sandbox/proj" || info.Model != "fake-model" || info.FirstMessage == "(no messages)" || info.Branches != 1 {
				t.Errorf("info %+v", info)
			}
			d := s.Domain(info)
			// Every call is followed by its result.
			var msgs []model.Message
			for i := range s.Entries {
				ctx := model.ContextMessage{Entry: i}
				bs := blocks(s.Entries[i].Content)
				if s.Entries[i].Role == "user" && resultsOnly(bs) {
					for k := range bs {
						ctx.Content = int32(-(k + 1))
						msgs = append(msgs, s.Message(ctx))
					}
					continue
				}
				msgs = append(msgs, s.Message(ctx))
			}
			formattest.CallsAnswered(t, msgs, model.PairTools(msgs))
			for k, a := range s.Agents {
				if a.Call < 0 {
					t.Errorf("sub-agent %d (%s) not under its call", k, a.Name)
				}
			}
			if got := len(d.Path(s.Leaf())); got != countFile0(s) {
				t.Errorf("path %d entries, lead has %d", got, countFile0(s))
			}
			// Tokens: the stats equal what the server reported.
			formattest.OpenAIStats(t, s.Stats(), filepath.Join(dir, "usage.json"), -1)
			// The context at each resume: the file cut where it began.
			resumes, _ := filepath.Glob(filepath.Join(dir, "resume*-request.json"))
			k := 0
			for i := 1; i < len(steps); i++ {
				name := formattest.ResumeRequest(k, len(resumes))
				k++
				var req struct {
					Messages []json.RawMessage `json:"messages"`
				}
				readJSON(t, filepath.Join(dir, name), &req)
				n := steps[i-1].Lines[id+"/"+id+MessagesSuffix]
				cut := *s
				cut.Entries = nil
				for j := range s.Entries {
					if s.Entries[j].File == 0 && len(cut.Entries) < n {
						cut.Entries = append(cut.Entries, s.Entries[j])
					}
				}
				cut.link()
				got := cut.OpenAIMessages(cut.BuildContext(cut.Leaf()))
				want := req.Messages[1 : len(req.Messages)-1]
				t.Logf("%s: %d messages compared", name, len(want))
				if len(got) != len(want) {
					t.Fatalf("%s: %d messages, Cline sent %d", name, len(got), len(want))
				}
				for j := range want {
					var w, g any
					_ = json.Unmarshal(want[j], &w)
					b, _ := json.Marshal(got[j])
					_ = json.Unmarshal(b, &g)
					if !reflect.DeepEqual(g, w) {
						t.Errorf("%s message %d:\n got %s\nwant %s", name, j, b, want[j])
					}
				}
			}
		})
	}
}

func countFile0(s *Session) int {
	n := 0
	for i := range s.Entries {
		if s.Entries[i].File == 0 {
			n++
		}
	}
	return n
}

var readJSON = formattest.ReadJSON
