package codex

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"skein/internal/formattest"
)

// The rollouts Codex 0.171.0 wrote and the requests it sent when it
// resumed or forked them (testdata/agentgen/codex/README.md): the
// committed ones, or those a cross-check run just made with a fresh seed
// (AGENTGEN_OUT, testdata/agentgen/crosscheck.sh).
var agentgen = formattest.AgentgenSteps[formattest.Step]("codex")

// differs names the resumes whose context skein does not rebuild yet, with
// why: the test logs their first difference, and fails once one is equal
// (take it off the list then).
var differs = map[string]string{}

// TestAgentgenContext checks that the context skein builds at the end of a
// rollout, cut to the lines it had when a resume (or fork) began, is the
// input Codex sent in that resume's first request, less the user message
// the resume added. The base instructions' message id is Codex's own
// (msg_<uuid v5> of nothing we can derive), so neither side's is compared.
func TestAgentgenContext(t *testing.T) {
	for _, sc := range agentgen.Scenarios(t) {
		dir := sc.Dir
		for _, c := range agentgenCases(sc.Steps) {
			name := sc.Name + "/" + c.file
			t.Run(name, func(t *testing.T) {
				formattest.KnownDiff(t, "differs", differs, name, agentgenDiff(t, dir, c))
			})
		}
	}
}

// agentgenCase is one resume or fork: the request file, the rollout Codex
// read (its path under codex-home) and every rollout's line count then.
type agentgenCase struct {
	file, path string
	lines      map[string]int
}

// agentgenCases are a scenario's resumes and forks, named as gen.mjs names
// their requests (the last one kind-request.json, the others
// kind-N-request.json), each with the files as the step before it left
// them.
func agentgenCases(steps []formattest.Step) []agentgenCase {
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
			k := slices.IndexFunc(keys(steps[j].Lines), func(p string) bool { return strings.Contains(p, target) })
			if k >= 0 {
				out = append(out, agentgenCase{file, keys(steps[j].Lines)[k], steps[j].Lines})
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

var read = formattest.ReadFile

// agentgenDiff is the first difference between skein's context and the
// request's input, or "".
func agentgenDiff(t *testing.T, dir string, c agentgenCase) string {
	// The store as Codex read it: each rollout cut to its lines then.
	home := t.TempDir()
	for p, n := range c.lines {
		data, ok := formattest.Cut(read(t, filepath.Join(dir, "codex-home", p)), n)
		if !ok {
			t.Fatalf("%s has fewer than %d lines", p, n)
		}
		formattest.Put(t, filepath.Join(home, p), data)
	}
	s := open(t, filepath.Join(home, c.path))
	var got struct{ Messages []map[string]any }
	formattest.LeafContextJSON(t, s, &got)
	var req struct{ Input []map[string]any }
	formattest.ReadJSON(t, filepath.Join(dir, c.file), &req)
	want := req.Input[:len(req.Input)-1] // less the resume's own user message
	baseID := func(items []map[string]any) {
		if len(items) > 0 && items[0]["role"] == "developer" {
			delete(items[0], "id")
		}
	}
	baseID(want)
	baseID(got.Messages)
	return formattest.FirstDiff("item", want, got.Messages, 400)
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

// withoutMember drops only a top-level member, and leaves an item without
// one as it is.
func TestWithoutMember(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1,"` + passthrough + `":{"x":2},"b":[3]}`: `{"a":1,"b":[3]}`,
		`{"` + passthrough + `":1}`:                     `{}`,
		`{"a":{"` + passthrough + `":1}}`:               `{"a":{"` + passthrough + `":1}}`,
		`{"a":"\"` + passthrough + `\""}`:               `{"a":"\"` + passthrough + `\""}`,
	} {
		if got := string(withoutMember([]byte(in), passthrough)); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// A 0.171.0 fork whose source is not in the store has its own items only.
func TestForkWithoutSource(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rollout-2026-12-06T12-45-49-01a24b63-9e7e-7223-a811-294820dfa5ee.jsonl")
	data := `{"timestamp":"2026-12-06T12:45:49.618Z","ordinal":19,"type":"session_meta","payload":{"id":"01a24b63-9e7e-7223-a811-294820dfa5ee","forked_from_id":"01a24b63-97b1-7162-973d-c7d9330af151","forked_from_ordinal_exclusive":19,"cwd":"/p"}}
{"timestamp":"2026-12-06T12:45:49.797Z","ordinal":24,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}
`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	if s.Meta.ForkedFromOrdinal != 19 {
		t.Errorf("ordinal %d", s.Meta.ForkedFromOrdinal)
	}
	var buf bytes.Buffer
	if err := s.WriteContextJSON(&buf, s.BuildContext(s.Leaf())); err != nil {
		t.Fatal(err)
	}
	if want := `{"messages":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}]}` + "\n"; buf.String() != want {
		t.Errorf("%s", buf.String())
	}
}
