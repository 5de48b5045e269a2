package gemini

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"skein/internal/formattest"
	"skein/model"
	"skein/store"
)

// The chat files Gemini CLI 0.61.0 wrote and the requests it sent
// (testdata/agentgen/gemini/README.md): the committed ones, or those a
// cross-check run just made (AGENTGEN_OUT).
var agentgen = formattest.AgentgenDir("gemini")

type agentgenRun struct {
	Label     string         `json:"label"`
	Args      []string       `json:"args"`
	SessionID string         `json:"sessionId"`
	Lines     map[string]int `json:"lines"`
}

func scenarios(t *testing.T) []string {
	t.Helper()
	return formattest.Scenarios(t, agentgen, 1)
}

func runsOf(t *testing.T, sc string) []agentgenRun {
	t.Helper()
	var r struct{ Runs []agentgenRun }
	formattest.ReadJSON(t, filepath.Join(agentgen, sc, "runs.json"), &r)
	return r.Runs
}

var read = formattest.ReadFile

// tmpOf is a scenario's ~/.gemini/tmp.
func tmpOf(sc string) string { return filepath.Join(agentgen, sc, "home", ".gemini", "tmp") }

// TestAgentgenContext checks that the context skein builds at the end of
// a chat file, cut to the lines it had when a resume began, is the
// contents Gemini CLI sent in that resume's first request, less the
// prompt the resume added.
func TestAgentgenContext(t *testing.T) {
	for _, sc := range scenarios(t) {
		runs := runsOf(t, sc)
		for i, r := range runs {
			if !slices.Contains(r.Args, "--resume") || i == 0 {
				continue
			}
			file := "resume-request.json"
			if r.Label != "resume" {
				file = r.Label + "-request.json"
			}
			if _, err := os.Stat(filepath.Join(agentgen, sc, file)); err != nil {
				continue
			}
			t.Run(sc+"/"+file, func(t *testing.T) {
				if diff := contextDiff(t, sc, file, runs[i-1], r.SessionID); diff != "" {
					t.Error(diff)
				}
			})
		}
	}
}

func contextDiff(t *testing.T, sc, file string, before agentgenRun, id string) string {
	dir := t.TempDir()
	var main string
	for rel, n := range before.Lines {
		data, ok := formattest.Cut(read(t, filepath.Join(tmpOf(sc), rel)), n)
		if !ok {
			t.Fatalf("%s has fewer than %d lines", rel, n)
		}
		p := filepath.Join(dir, rel)
		formattest.Put(t, p, data)
		if IsChatFileName(filepath.Base(rel)) && strings.Contains(rel, id[:8]) {
			if s, err := Open(p); err == nil && s.Resumable() {
				main = p
			}
		}
	}
	if main == "" {
		t.Fatalf("no chat file of %s before the resume", id)
	}
	s, err := Open(main)
	if err != nil {
		t.Fatal(err)
	}
	var got, req struct{ Contents []any }
	formattest.LeafContextJSON(t, s, &got)
	formattest.ReadJSON(t, filepath.Join(agentgen, sc, file), &req)
	want := req.Contents[:len(req.Contents)-1]
	return formattest.FirstDiff("content", want, got.Contents, 600)
}

// chatFiles are a scenario's chat files, sub-agents' included.
func chatFiles(t *testing.T, sc string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(tmpOf(sc), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAgentgenSessions opens every file Gemini CLI wrote: it is claimed
// and detected as Gemini CLI's, listed with its project and first prompt
// (or, for a resume's empty start, a part of its session), one branch,
// every call followed on the path by its result, no problem, and the
// tokens of all files equal to what the server reported for the turns.
func TestAgentgenSessions(t *testing.T) {
	b := store.ForFormat(Format)
	if b == nil || b.Format() != Format {
		t.Fatal("no backend registered for gemini")
	}
	for _, sc := range scenarios(t) {
		t.Run(sc, func(t *testing.T) {
			var total model.UsageTotals
			listed := 0
			for _, p := range chatFiles(t, sc) {
				rel, _ := filepath.Rel(tmpOf(sc), p)
				formattest.Recognized(t, p, b.Claims, b.Detect, nil)
				s := formattest.OpenClean(t, Open, p)
				for _, m := range s.Stats().ByModel {
					total.AddUsage(m.UsageTotals)
				}
				if !s.Resumable() {
					if pt, ok := b.(store.Parter); !ok || pt.PartOf(p) == nil {
						t.Errorf("%s: a resume's empty start is not a part", rel)
					}
					continue
				}
				listed++
				info := s.Info(p, 0)
				if info.ID != s.Meta.SessionID || info.Cwd != "/sandbox/proj" || info.FirstMessage == "(no messages)" || info.Model != "gemini-2.5-pro" {
					t.Errorf("%s: info %+v", rel, info)
				}
				if s.Meta.Kind == "subagent" && info.ParentSession == "" {
					t.Errorf("%s: a sub-agent without its parent", rel)
				}
				if n := s.tips(); n != 1 {
					t.Errorf("%s: %d branches", rel, n)
				}
				d := s.Domain(info)
				pathCalls(t, rel, d, s.Meta.Kind == "subagent")
			}
			if listed == 0 {
				t.Error("nothing listed")
			}
			var want model.UsageTotals
			var usage []struct {
				Purpose string
				Usage   map[string]float64
			}
			formattest.ReadJSON(t, filepath.Join(agentgen, sc, "usage.json"), &usage)
			for _, u := range usage {
				if u.Purpose != "main" || u.Usage == nil {
					continue
				}
				want.TokensIn += u.Usage["promptTokenCount"] - u.Usage["cachedContentTokenCount"]
				want.CacheRead += u.Usage["cachedContentTokenCount"]
				want.TokensOut += u.Usage["candidatesTokenCount"] + u.Usage["thoughtsTokenCount"]
			}
			total.Cost, total.Unpriced = 0, 0 // the price table's part, not the server's
			if total != want {
				t.Errorf("tokens %+v, the server reported %+v", total, want)
			}
		})
	}
}

// pathCalls checks that every call on the path to the leaf is answered
// later on it; a sub-agent's complete_task, which ends it, is not.
func pathCalls(t *testing.T, rel string, d *model.Session, sub bool) {
	t.Helper()
	open := map[string]string{}
	for _, i := range d.Path(d.Leaf()) {
		m := d.EntryMessage(i)
		for _, c := range m.ToolCalls() {
			open[c.ID] = c.Name
		}
		if m.Role == model.RoleToolResult {
			if m.ToolCallID == "" {
				t.Errorf("%s: a result without its call's id", rel)
			}
			delete(open, m.ToolCallID)
		}
	}
	for id, name := range open {
		if sub && name == "complete_task" {
			continue
		}
		t.Errorf("%s: call %s (%s) has no result", rel, id, name)
	}
}
