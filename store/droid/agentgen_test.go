package droid

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"skein/internal/formattest"
	"skein/model"
	"skein/store"
)

// The sessions Factory Droid 0.225.2 wrote and the requests it sent when
// it resumed them (testdata/agentgen/droid/README.md): the committed
// ones, or those a cross-check run just made with a fresh seed
// (AGENTGEN_OUT).
var agentgen = formattest.AgentgenSteps[formattest.Step]("droid")

var read = formattest.ReadFile

// fixtureFile is the path of session id's file under a fixture's
// factory-home.
func fixtureFile(t *testing.T, dir, id string) string {
	t.Helper()
	return formattest.OneFile(t, filepath.Join(dir, "home", ".factory", "sessions", "*", id+".jsonl"))
}

// TestAgentgenSessions opens every session Droid wrote: listed by the
// store from the fixture's home with its id, cwd, title and model; every
// tool call followed by its result; one branch; the stats' tokens equal
// to what the fake server reported.
func TestAgentgenSessions(t *testing.T) {
	for _, sc := range agentgen.Scenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			id := sc.Steps[0].Session
			path := fixtureFile(t, sc.Dir, id)
			if !IsSessionPath(path) {
				t.Errorf("%s: not claimed", path)
			}
			first, _, _ := bytes.Cut(read(t, path), []byte("\n"))
			if !Sniff(first) || !IsRecord(first) {
				t.Errorf("first line not detected: %.80s", first)
			}
			s := formattest.OpenClean(t, Open, path)
			info := s.Info(path, 0)
			prompt := sc.Steps[0].Args[1]
			if info.ID != id || info.Cwd != "/sandbox/proj" || info.FirstMessage != prompt || info.Name != prompt || info.Model != "custom:fake" {
				t.Errorf("info: id %q cwd %q first %q name %q model %q", info.ID, info.Cwd, info.FirstMessage, info.Name, info.Model)
			}
			if info.Branches != 1 {
				t.Errorf("branches = %d, want 1", info.Branches)
			}
			msgs := formattest.Messages(s, s.Domain(info).BuildContext(s.Leaf()))
			formattest.ResultsFollowCalls(t, msgs, model.RoleToolResult)
			var want model.UsageTotals
			var used []struct {
				Usage *struct {
					In  float64 `json:"input_tokens"`
					Out float64 `json:"output_tokens"`
					CR  float64 `json:"cache_read_input_tokens"`
					CW  float64 `json:"cache_creation_input_tokens"`
				} `json:"usage"`
			}
			formattest.ReadJSON(t, filepath.Join(sc.Dir, "usage.json"), &used)
			for _, u := range used {
				if u.Usage != nil {
					want.TokensIn += u.Usage.In
					want.TokensOut += u.Usage.Out
					want.CacheRead += u.Usage.CR
					want.CacheWrite += u.Usage.CW
				}
			}
			st := s.Stats()
			got := model.UsageTotals{TokensIn: st.Totals.TokensIn, TokensOut: st.Totals.TokensOut, CacheRead: st.Totals.CacheRead, CacheWrite: st.Totals.CacheWrite}
			if got != want {
				t.Errorf("stats tokens %+v, server reported %+v", got, want)
			}
			if len(st.ByModel) != 1 || st.ByModel[0].Key != "custom:fake" {
				t.Errorf("by model: %+v", st.ByModel)
			}
		})
	}
}

// TestAgentgenListed reads each session's id through the registered
// backend, as the list does.
func TestAgentgenListed(t *testing.T) {
	for _, sc := range agentgen.Scenarios(t) {
		path := fixtureFile(t, sc.Dir, sc.Steps[0].Session)
		b := store.ForFormat(FormatDroid)
		if b == nil {
			t.Fatal("droid backend not registered")
		}
		id, err := b.SessionID(path)
		if err != nil || id != sc.Steps[0].Session {
			t.Errorf("%s: SessionID = %q, %v", sc.Name, id, err)
		}
	}
}

// TestAgentgenResume checks skein's context against what Droid sent when
// it resumed: the session file cut where the resume began, its context
// as Anthropic messages (each record's content as stored, a record of
// tool results one message), equal to the request's messages less the
// new prompt; the blocks compared less cache_control (added when
// sending) and the thinking blocks' signatureProvider and durationMs
// (kept, not sent).
func TestAgentgenResume(t *testing.T) {
	n := 0
	for _, sc := range agentgen.Scenarios(t) {
		resumes := 0
		for i, st := range sc.Steps {
			if i == 0 || !contains(st.Args, "-s") {
				continue
			}
			resumes++
			name := filepath.Join(sc.Dir, "resume-request.json")
			if other := filepath.Join(sc.Dir, "resume-"+itoa(resumes)+"-request.json"); exists(other) {
				name = other
			}
			t.Run(sc.Name+"/"+filepath.Base(name), func(t *testing.T) {
				path := fixtureFile(t, sc.Dir, sc.Steps[0].Session)
				rel := ".factory/sessions/" + filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
				lines := sc.Steps[i-1].Lines[rel]
				if lines == 0 {
					t.Fatalf("no line count for %s in step %d", rel, i-1)
				}
				data, _ := formattest.Cut(read(t, path), lines)
				s, err := Parse(data)
				if err != nil {
					t.Fatal(err)
				}
				ctx := s.BuildContext(s.Leaf())
				var got []any
				for _, p := range ctx.Entries {
					e := &s.Entries[p.Entry]
					var content any
					if err := json.Unmarshal(e.Content, &content); err != nil {
						t.Fatal(err)
					}
					got = append(got, map[string]any{"role": e.Role, "content": clean(content)})
				}
				var req struct {
					Messages []any `json:"messages"`
				}
				formattest.ReadJSON(t, name, &req)
				if len(req.Messages) == 0 {
					t.Fatal("no messages in the request")
				}
				want := clean(req.Messages[:len(req.Messages)-1]).([]any)
				if !reflect.DeepEqual(got, want) {
					g, _ := json.MarshalIndent(got, "", " ")
					w, _ := json.MarshalIndent(want, "", " ")
					t.Errorf("context differs from the request:\n got %s\nwant %s", trim(g), trim(w))
				}
			})
			n++
		}
	}
	if n == 0 {
		t.Fatal("no resume checked")
	}
}

// clean drops what Droid adds when sending (cache_control) and what it
// keeps but does not send (a thinking block's signatureProvider and
// durationMs).
func clean(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = clean(x[i])
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, v := range x {
			if k == "cache_control" || k == "signatureProvider" || k == "durationMs" {
				continue
			}
			out[k] = clean(v)
		}
		return out
	}
	return v
}

func trim(b []byte) string {
	if len(b) > 4000 {
		return string(b[:4000]) + "..."
	}
	return string(b)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }
