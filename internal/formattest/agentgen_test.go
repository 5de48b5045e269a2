package formattest

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestAgentgenDir(t *testing.T) {
	t.Setenv("AGENTGEN_OUT", "")
	if d := AgentgenDir("qwen"); d != filepath.Join("..", "..", "testdata", "agentgen", "qwen", "fixtures") {
		t.Errorf("committed: %s", d)
	}
	t.Setenv("AGENTGEN_OUT", "/tmp/agx")
	if d := AgentgenDir("claude"); d != "/tmp/agx/claude" {
		t.Errorf("fresh run: %s", d)
	}
}

func TestCut(t *testing.T) {
	data := []byte("a\nbb\nc")
	for n, want := range map[int]string{0: "", 1: "a\n", 2: "a\nbb\n"} {
		if got, ok := Cut(data, n); !ok || string(got) != want {
			t.Errorf("%d lines: %q %v", n, got, ok)
		}
	}
	if got, ok := Cut(data, 3); ok || string(got) != string(data) {
		t.Errorf("past the last line end: %q %v", got, ok)
	}
}

func TestFirstDiff(t *testing.T) {
	a := []any{map[string]any{"x": 1.0}, "b"}
	if d := FirstDiff("message", a, []any{map[string]any{"x": 1.0}, "b"}, 10); d != "" {
		t.Errorf("equal lists: %s", d)
	}
	if d := FirstDiff("message", a, []any{map[string]any{"x": 2.0}, "b"}, 400); !strings.HasPrefix(d, "message 0 of 2 (skein has 2):\n  want {\"x\":1}\n  got  {\"x\":2}") {
		t.Errorf("first differs: %s", d)
	}
	if d := FirstDiff("item", a, a[:1], 400); !strings.Contains(d, "item 1 of 2 (skein has 1)") || !strings.HasSuffix(d, "got  (none)") {
		t.Errorf("one short: %s", d)
	}
	if d := FirstDiff("item", []string{strings.Repeat("y", 50)}, []string{"z"}, 5); !strings.Contains(d, `want "yyyy…`) {
		t.Errorf("clipped: %s", d)
	}
}

func TestOpenAIUsage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "usage.json")
	Put(t, path, []byte(`[{"usage":{"prompt_tokens":10,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":4}}},{"who":"x"},{"usage":{"prompt_tokens":5,"completion_tokens":1}}]`))
	if in, cached, out := OpenAIUsage(t, path); in != 11 || cached != 4 || out != 4 {
		t.Errorf("in %v cached %v out %v", in, cached, out)
	}
}

func TestLeaves(t *testing.T) {
	for _, c := range []struct {
		leaf, n int
		want    string
	}{{4, 5, "[4 2]"}, {-1, 0, "[0]"}, {-1, 3, "[1]"}} {
		if got := fmt.Sprint(Leaves(lenLeaf{c.leaf, c.n})()); got != c.want {
			t.Errorf("leaf %d of %d: %s", c.leaf, c.n, got)
		}
	}
}

type lenLeaf struct{ leaf, n int }

func (s lenLeaf) Leaf() int { return s.leaf }
func (s lenLeaf) Len() int  { return s.n }

func TestResumeRequest(t *testing.T) {
	var got []string
	for k := range 3 {
		got = append(got, ResumeRequest(k, 3))
	}
	if want := "[resume-1-request.json resume-2-request.json resume-request.json]"; fmt.Sprint(got) != want || ResumeRequest(0, 1) != "resume-request.json" {
		t.Errorf("%v, one resume: %s", got, ResumeRequest(0, 1))
	}
}

// logger keeps what a check logs, beside what it reports (recorder).
type logger struct {
	*recorder
	logs []string
}

func (l *logger) Logf(format string, args ...any) {
	l.logs = append(l.logs, fmt.Sprintf(format, args...))
}

func TestKnownDiff(t *testing.T) {
	differs := map[string]string{"a/resume": "a reason"}
	for _, c := range []struct {
		label, diff string
		fails, logs []string
	}{
		{"b", "", nil, nil},
		{"b", "message 0 differs", []string{"message 0 differs"}, nil},
		{"a/resume", "message 1 differs", nil, []string{"differs (a reason): message 1 differs"}},
		{"a/resume", "", []string{"now equal: take it off differs (a reason)"}, nil},
	} {
		l := &logger{recorder: &recorder{TB: t}}
		KnownDiff(l, "differs", differs, c.label, c.diff)
		if fmt.Sprint(l.failures) != fmt.Sprint(c.fails) || fmt.Sprint(l.logs) != fmt.Sprint(c.logs) {
			t.Errorf("%s %q: failures %q logs %q", c.label, c.diff, l.failures, l.logs)
		}
	}
}

func TestRecognized(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	Put(t, path, []byte("{\"first\":1}\n{\"second\":2}\n"))
	yes := func(string) bool { return true }
	firstOnly := func(line []byte, first bool) bool { return first && string(line) == `{"first":1}` }
	whole := func(head []byte) bool { return strings.Contains(string(head), "second") }
	if f := run(t, func(tb testing.TB) { Recognized(tb, path, yes, firstOnly, whole) }); len(f) != 0 {
		t.Errorf("found: %q", f)
	}
	if f := run(t, func(tb testing.TB) { Recognized(tb, path, yes, firstOnly, nil) }); len(f) != 0 {
		t.Errorf("found without a sniff: %q", f)
	}
	no := func(string) bool { return false }
	f := run(t, func(tb testing.TB) {
		Recognized(tb, path, no, firstOnly, func([]byte) bool { return false })
	})
	if !slices.Equal(f, []string{"not claimed: " + path, "not detected: " + path}) {
		t.Errorf("neither: %q", f)
	}
}
