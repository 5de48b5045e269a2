package formattest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// AgentgenDir is the folder of the sessions agent wrote and the requests
// it sent under testdata/agentgen (its README.md says how): those a
// cross-check run just made with a fresh seed when AGENTGEN_OUT is set
// (AGENTGEN_OUT/<agent>), else the committed ones, as a test of a package
// under store/ finds them.
func AgentgenDir(agent string) string {
	if d := os.Getenv("AGENTGEN_OUT"); d != "" {
		return filepath.Join(d, agent)
	}
	return filepath.Join("..", "..", "testdata", "agentgen", agent, "fixtures")
}

// Scenarios are the names of the folders in dir, a scenario each, in
// name order; the test ends when there are fewer than least.
func Scenarios(t testing.TB, dir string, least int) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		if de.IsDir() {
			out = append(out, de.Name())
		}
	}
	if len(out) < least {
		t.Fatalf("%d scenarios in %s", len(out), dir)
	}
	return out
}

// A Scenario is one folder of an agent's fixtures and the runs of the
// agent that made it, as its steps.json lists them ({"steps": [...]});
// S is what a format's test reads of a step.
type Scenario[S any] struct {
	Name, Dir string
	Steps     []S
}

// StepScenarios are the scenarios in dir with their steps, in name order;
// the test ends when there is none.
func StepScenarios[S any](t testing.TB, dir string) []Scenario[S] {
	t.Helper()
	var out []Scenario[S]
	for _, name := range Scenarios(t, dir, 1) {
		sc := Scenario[S]{Name: name, Dir: filepath.Join(dir, name)}
		var steps struct{ Steps []S }
		ReadJSON(t, filepath.Join(sc.Dir, "steps.json"), &steps)
		sc.Steps = steps.Steps
		out = append(out, sc)
	}
	return out
}

// ReadJSON decodes the JSON file at path into v, or ends the test.
func ReadJSON(t testing.TB, path string, v any) {
	t.Helper()
	if err := json.Unmarshal(ReadFile(t, path), v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// Cut is data's first n lines, each with its newline: a file as it was
// when the agent had written n lines of it (when a resume began). ok is
// false when data has fewer lines; the whole of data is returned then.
func Cut(data []byte, n int) (head []byte, ok bool) {
	end := 0
	for range n {
		i := bytes.IndexByte(data[end:], '\n')
		if i < 0 {
			return data, false
		}
		end += i + 1
	}
	return data[:end], true
}

// FirstDiff is where the lists want (what the agent sent) and got (what
// skein built) first differ, by reflect.DeepEqual (on values decoded from
// JSON: equal JSON), as "what k of len(want) (skein has len(got))" with
// both elements as JSON clipped to clip bytes, "(none)" past a list's
// end; "" when the lists are equal.
func FirstDiff[T any](what string, want, got []T, clip int) string {
	for k := range max(len(want), len(got)) {
		var w, g any
		if k < len(want) {
			w = want[k]
		}
		if k < len(got) {
			g = got[k]
		}
		if !reflect.DeepEqual(w, g) {
			return fmt.Sprintf("%s %d of %d (skein has %d):\n  want %s\n  got  %s", what, k, len(want), len(got), clipJSON(w, k < len(want), clip), clipJSON(g, k < len(got), clip))
		}
	}
	return ""
}

func clipJSON(v any, ok bool, clip int) string {
	if !ok {
		return "(none)"
	}
	b, _ := json.Marshal(v)
	if len(b) > clip {
		return string(b[:clip]) + "…"
	}
	return string(b)
}

// Put writes data to path, making its folder first, or ends the test: a
// file of an agent's home rebuilt as it was when a resume began.
func Put(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// OpenAIUsage is what the fake server reported in usage.json at path for
// an agent that speaks OpenAI's chat API: the prompt's tokens less those
// read from the cache, the cached ones, and the completion's, summed over
// every reply that has a usage.
func OpenAIUsage(t testing.TB, path string) (in, cached, out float64) {
	t.Helper()
	var usage []struct {
		Usage *struct {
			Prompt     float64 `json:"prompt_tokens"`
			Completion float64 `json:"completion_tokens"`
			Details    *struct {
				Cached float64 `json:"cached_tokens"`
			} `json:"prompt_tokens_details"`
		} `json:"usage"`
	}
	ReadJSON(t, path, &usage)
	for _, u := range usage {
		if u.Usage == nil {
			continue
		}
		in += u.Usage.Prompt
		out += u.Usage.Completion
		if u.Usage.Details != nil {
			cached += u.Usage.Details.Cached
		}
	}
	return in - cached, cached, out
}

// ResumeRequest is the name of the file in which the fake server logged
// the first request of resume k (from 0) of a scenario's n:
// resume-<k+1>-request.json, and resume-request.json for the last.
func ResumeRequest(k, n int) string {
	if k < n-1 {
		return fmt.Sprintf("resume-%d-request.json", k+1)
	}
	return "resume-request.json"
}

// KnownDiff reports diff, where what skein built for label first differs
// from what the agent sent ("" where it does not): an error, unless the
// list of known differences (differs, named list in the message) names
// label, with why, when it is logged; and an error when a label it names
// differs no more, so that the list is kept true (take it off then).
func KnownDiff(t testing.TB, list string, differs map[string]string, label, diff string) {
	t.Helper()
	why, known := differs[label]
	switch {
	case diff == "" && known:
		t.Errorf("now equal: take it off %s (%s)", list, why)
	case diff != "" && known:
		t.Logf("differs (%s): %s", why, diff)
	case diff != "":
		t.Error(diff)
	}
}

// Recognized checks that the file at path, which its agent wrote, is
// found as its format's by the cheap tests a finder asks: claims of its
// path, detect of its first line, and sniff (nil: not asked) of the file.
func Recognized(t testing.TB, path string, claims func(path string) bool, detect func(line []byte, first bool) bool, sniff func(head []byte) bool) {
	t.Helper()
	if !claims(path) {
		t.Errorf("not claimed: %s", path)
	}
	head := ReadFile(t, path)
	first, _, _ := bytes.Cut(head, []byte("\n"))
	if !detect(first, true) || sniff != nil && !sniff(head) {
		t.Errorf("not detected: %s", path)
	}
}
