package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The rollouts Codex 0.171.0 wrote and the requests it sent when it
// resumed or forked them (testdata/agentgen/codex/README.md).
const agentgen = "../../testdata/agentgen/codex/fixtures"

// differs names the resumes whose context skein does not rebuild yet, with
// why: the test logs their first difference, and fails once one is equal
// (take it off the list then).
var differs = map[string]string{
	"fork/resume-request.json": "a fork's file holds only its own lines: the source's lines below forked_from_ordinal_exclusive are in the source's file, which Parse does not read",
}

type agentgenStep struct {
	Session  string         `json:"session"`
	Args     []string       `json:"args"`
	Rollouts map[string]int `json:"rollouts"`
}

// TestAgentgenContext checks that the context skein builds at the end of a
// rollout, cut to the lines it had when a resume (or fork) began, is the
// input Codex sent in that resume's first request, less the user message
// the resume added. The base instructions' message id is Codex's own
// (msg_<uuid v5> of nothing we can derive), so neither side's is compared.
func TestAgentgenContext(t *testing.T) {
	scenarios, err := os.ReadDir(agentgen)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scenarios {
		dir := filepath.Join(agentgen, sc.Name())
		var steps struct{ Steps []agentgenStep }
		if err := json.Unmarshal(read(t, filepath.Join(dir, "steps.json")), &steps); err != nil {
			t.Fatal(err)
		}
		for _, c := range agentgenCases(steps.Steps) {
			name := sc.Name() + "/" + c.file
			t.Run(name, func(t *testing.T) {
				diff := agentgenDiff(t, dir, c)
				why, known := differs[name]
				switch {
				case diff == "" && known:
					t.Errorf("now equal: take it off differs (%s)", why)
				case diff != "" && known:
					t.Logf("differs (%s): %s", why, diff)
				case diff != "":
					t.Error(diff)
				}
			})
		}
	}
}

// agentgenCase is one resume or fork: the request file, and the rollout
// (path under codex-home, lines) Codex read.
type agentgenCase struct {
	file, path string
	lines      int
}

// agentgenCases are a scenario's resumes and forks, named as gen.mjs names
// their requests (the last one kind-request.json, the others
// kind-N-request.json), each with the file it resumed as the step before
// it left it.
func agentgenCases(steps []agentgenStep) []agentgenCase {
	var out []agentgenCase
	count := map[string]int{}
	for _, s := range steps {
		if len(s.Args) > 3 {
			count[s.Args[2]]++
		}
	}
	seen := map[string]int{}
	for i, s := range steps {
		if len(s.Args) < 4 || (s.Args[2] != "resume" && s.Args[2] != "fork") {
			continue
		}
		kind, target := s.Args[2], s.Args[3]
		seen[kind]++
		file := kind + "-request.json"
		if seen[kind] < count[kind] {
			file = fmt.Sprintf("%s-%d-request.json", kind, seen[kind])
		}
		for j := i - 1; j >= 0; j-- {
			k := slices.IndexFunc(keys(steps[j].Rollouts), func(p string) bool { return strings.Contains(p, target) })
			if k >= 0 {
				p := keys(steps[j].Rollouts)[k]
				out = append(out, agentgenCase{file, p, steps[j].Rollouts[p]})
				break
			}
		}
	}
	return out
}

func keys(m map[string]int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// agentgenDiff is the first difference between skein's context and the
// request's input, or "".
func agentgenDiff(t *testing.T, dir string, c agentgenCase) string {
	data := read(t, filepath.Join(dir, "codex-home", c.path))
	cut := 0
	for n := 0; n < c.lines; n++ {
		k := bytes.IndexByte(data[cut:], '\n')
		if k < 0 {
			t.Fatalf("%s has fewer than %d lines", c.path, c.lines)
		}
		cut += k + 1
	}
	s, err := Parse(data[:cut])
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := s.WriteContextJSON(&buf, s.BuildContext(s.Leaf())); err != nil {
		t.Fatal(err)
	}
	var got struct{ Messages []map[string]any }
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("context JSON: %v", err)
	}
	var req struct{ Input []map[string]any }
	if err := json.Unmarshal(read(t, filepath.Join(dir, c.file)), &req); err != nil {
		t.Fatal(err)
	}
	want := req.Input[:len(req.Input)-1] // less the resume's own user message
	baseID := func(items []map[string]any) {
		if len(items) > 0 && items[0]["role"] == "developer" {
			delete(items[0], "id")
		}
	}
	baseID(want)
	baseID(got.Messages)
	for k := range max(len(want), len(got.Messages)) {
		var w, g []byte
		if k < len(want) {
			w, _ = json.Marshal(want[k])
		}
		if k < len(got.Messages) {
			g, _ = json.Marshal(got.Messages[k])
		}
		if !bytes.Equal(w, g) {
			return fmt.Sprintf("item %d of %d (skein has %d):\n  want %s\n  got  %s", k, len(want), len(got.Messages), clip(w), clip(g))
		}
	}
	return ""
}

func clip(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	if b == nil {
		return "(none)"
	}
	return string(b)
}
