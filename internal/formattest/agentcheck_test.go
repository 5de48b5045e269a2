package formattest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// call and msg are a tool call and a message as model's are to
// CallsAnswered: the calls asked of a pointer, their ID and Name fields.
type call struct{ ID, Name string }

type msg struct{ calls []call }

func (m *msg) ToolCalls() []call { return m.calls }

func TestCallsAnswered(t *testing.T) {
	msgs := []msg{{[]call{{"a", "ls"}, {"b", "cat"}}}, {}, {[]call{{"c", "rm"}}}}
	var ids []string
	f := run(t, func(tb testing.TB) { ids = CallsAnswered(tb, msgs, map[string]int{"a": 1, "b": 1, "c": 3}) })
	if len(f) != 0 || !slices.Equal(ids, []string{"a", "b", "c"}) {
		t.Errorf("every call answered: %q, ids %q", f, ids)
	}
	f = run(t, func(tb testing.TB) { ids = CallsAnswered(tb, msgs, map[string]int{"a": 1}) })
	if !slices.Equal(f, []string{"call b cat has no result", "call c rm has no result"}) || len(ids) != 3 {
		t.Errorf("two unanswered: %q, ids %q", f, ids)
	}
	if ids := CallsAnswered(t, []msg{}, nil); ids != nil {
		t.Errorf("no message: %q", ids)
	}
}

// stats are a model.Stats's fields that OpenAIStats reads.
type stats struct {
	TokensIn, TokensOut, CacheRead float64
	ToolCalls                      int
}

func TestOpenAIStats(t *testing.T) {
	path := filepath.Join(t.TempDir(), "usage.json")
	Put(t, path, []byte(`[{"usage":{"prompt_tokens":10,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":4}}}]`))
	good := stats{TokensIn: 6, CacheRead: 4, TokensOut: 3, ToolCalls: 2}
	for _, c := range []struct {
		st    stats
		calls int
		want  string
	}{
		{good, 2, ""},
		{good, -1, ""},
		{good, 3, "stats 2 calls, history 3"},
		{stats{TokensIn: 10, TokensOut: 3, ToolCalls: 2}, -1, "stats tokens in 10 cached 0 out 3, server 6 4 3"},
	} {
		f := run(t, func(tb testing.TB) { OpenAIStats(tb, c.st, path, c.calls) })
		if c.want == "" && len(f) != 0 || c.want != "" && (len(f) != 1 || f[0] != c.want) {
			t.Errorf("%+v, %d calls: %q, want %q", c.st, c.calls, f, c.want)
		}
	}
}

func TestSteps(t *testing.T) {
	out := t.TempDir()
	t.Setenv("AGENTGEN_OUT", out)
	Put(t, filepath.Join(out, "kimi", "b", "steps.json"), []byte(`{"steps":[{"session":"s2"}]}`))
	Put(t, filepath.Join(out, "kimi", "a", "steps.json"), []byte(`{"steps":[{"session":"s1"},{"session":"s1b"}]}`))
	a := AgentgenSteps[struct{ Session string }]("kimi")
	if a.Dir != filepath.Join(out, "kimi") {
		t.Errorf("dir %s", a.Dir)
	}
	sc := a.Scenarios(t)
	if len(sc) != 2 || sc[0].Name != "a" || len(sc[0].Steps) != 2 || sc[0].Steps[1].Session != "s1b" || sc[1].Dir != filepath.Join(out, "kimi", "b") {
		t.Errorf("scenarios %+v", sc)
	}
}

func TestOneFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.jsonl", "b.jsonl", "c.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := OneFile(t, filepath.Join(dir, "*.txt")); got != filepath.Join(dir, "c.txt") {
		t.Errorf("one match: %s", got)
	}
	for _, pattern := range []string{"*.jsonl", "*.json"} {
		if f := run(t, func(tb testing.TB) { OneFile(tb, filepath.Join(dir, pattern)) }); len(f) != 1 || !strings.Contains(f[0], pattern) {
			t.Errorf("%s: %q", pattern, f)
		}
	}
}

// ctxWriter is a session whose context at a leaf is the leaf, written as
// json says.
type ctxWriter struct {
	leaf int
	json string
	err  error
}

func (s ctxWriter) Leaf() int                 { return s.leaf }
func (s ctxWriter) BuildContext(leaf int) int { return leaf * 10 }
func (s ctxWriter) WriteContextJSON(w io.Writer, ctx int) error {
	if s.err != nil {
		return s.err
	}
	_, err := fmt.Fprintf(w, s.json, ctx)
	return err
}

func TestLeafContextJSON(t *testing.T) {
	var got struct{ Messages []int }
	if f := run(t, func(tb testing.TB) { LeafContextJSON(tb, ctxWriter{leaf: 3, json: `{"messages":[%d]}`}, &got) }); len(f) != 0 || !slices.Equal(got.Messages, []int{30}) {
		t.Errorf("the context at the leaf: %q %v", f, got)
	}
	for _, s := range []ctxWriter{{json: `{"messages":[%d`}, {err: errors.New("disk full")}} {
		if f := run(t, func(tb testing.TB) { LeafContextJSON(tb, s, &got) }); len(f) != 1 {
			t.Errorf("%+v: %q", s, f)
		}
	}
}

func TestListed(t *testing.T) {
	discover := func(roots []string) ([]string, error) {
		if roots[0] == "bad" {
			return nil, errors.New("unreadable")
		}
		return []string{roots[0] + "/a", roots[0] + "/b"}, nil
	}
	list := func(files []string, _ func(done, total int)) ([]string, []string) {
		if strings.HasPrefix(files[0], "odd") {
			return files[:1], []string{"b: not a session"}
		}
		return files, nil
	}
	var got []string
	if f := run(t, func(tb testing.TB) { got = Listed(tb, discover, list, []string{"x", "r"}, "r", 2) }); len(f) != 0 || !slices.Equal(got, []string{"r/a", "r/b"}) {
		t.Errorf("%q %q", f, got)
	}
	for _, c := range []struct {
		roots []string
		root  string
		n     int
		want  string
	}{
		{[]string{"x"}, "r", 2, "default roots [x] lack r"},
		{nil, "bad", 2, "unreadable"},
		{nil, "r", 3, "2 listed, want 3"},
		{nil, "odd", 1, "b: not a session"},
	} {
		f := run(t, func(tb testing.TB) { Listed(tb, discover, list, c.roots, c.root, c.n) })
		if len(f) != 1 || !strings.Contains(f[0], c.want) {
			t.Errorf("%+v: %q", c, f)
		}
	}
}

// diagnosed is a parsed session with its diagnostics.
type diagnosed struct{ Diagnostics []string }

func TestOpenClean(t *testing.T) {
	open := func(path string) (*diagnosed, error) {
		switch path {
		case "none":
			return nil, errors.New("no such file")
		case "damaged":
			return &diagnosed{[]string{"line 2: not JSON"}}, nil
		}
		return &diagnosed{}, nil
	}
	var s *diagnosed
	if f := run(t, func(tb testing.TB) { s = OpenClean(tb, open, "clean") }); len(f) != 0 || s == nil {
		t.Errorf("a clean file: %q", f)
	}
	for path, want := range map[string]string{"none": "none: no such file", "damaged": "diagnostics: [line 2: not JSON]"} {
		if f := run(t, func(tb testing.TB) { OpenClean(tb, open, path) }); len(f) != 1 || f[0] != want {
			t.Errorf("%s: %q, want %q", path, f, want)
		}
	}
}

// turn is a message as model's is to ResultsFollowCalls.
type turn struct {
	Role, ToolCallID string
	calls            []call
}

func (m *turn) ToolCalls() []call { return m.calls }

func TestResultsFollowCalls(t *testing.T) {
	ask := turn{Role: "assistant", calls: []call{{ID: "a"}, {ID: "b"}}}
	res := func(id string) turn { return turn{Role: "toolResult", ToolCallID: id} }
	user := turn{Role: "user"}
	for _, c := range []struct {
		msgs []turn
		want []string
	}{
		{[]turn{user, ask, res("b"), res("a"), user}, nil},
		{[]turn{user, ask, res("a"), user, res("b")}, []string{"calls without a result before message 3: map[b:true]"}},
		{[]turn{user, res("a"), ask, res("a"), res("b")}, []string{`result "a" answers no open call`}},
		{[]turn{user, ask, res("a")}, []string{"calls without a result: map[b:true]"}},
	} {
		if f := run(t, func(tb testing.TB) { ResultsFollowCalls(tb, c.msgs, "toolResult") }); !slices.Equal(f, c.want) {
			t.Errorf("%+v: %q, want %q", c.msgs, f, c.want)
		}
	}
}

// texts gives the message of a context message k as "m<k>".
type texts struct{}

func (texts) Message(k int) string { return "m" + fmt.Sprint(k) }

func TestMessages(t *testing.T) {
	if got := Messages(texts{}, dctx{Messages: []int{2, 0}}); !slices.Equal(got, []string{"m2", "m0"}) {
		t.Errorf("%q", got)
	}
	if got := Messages(texts{}, dctx{}); got != nil {
		t.Errorf("no message: %q", got)
	}
}

func TestStep(t *testing.T) {
	var steps []Step
	data := `[{"args":["exec","hi"],"exit":1,"session":"s1","requests":[1,2],"who":["main"],"wires":{"a/wire.jsonl":12}},
		{"args":[],"session":"s2","chats":{ "c.jsonl": 3 }},
		{"session":"s3"}]`
	if err := json.Unmarshal([]byte(data), &steps); err != nil {
		t.Fatal(err)
	}
	want := []Step{
		{Args: []string{"exec", "hi"}, Exit: 1, Session: "s1", Requests: []int{1, 2}, Lines: map[string]int{"a/wire.jsonl": 12}},
		{Args: []string{}, Session: "s2", Lines: map[string]int{"c.jsonl": 3}},
		{Session: "s3"},
	}
	if fmt.Sprintf("%#v", steps) != fmt.Sprintf("%#v", want) {
		t.Errorf("steps\n got %#v\nwant %#v", steps, want)
	}
	for _, bad := range []string{`{"files":{"a":1},"wires":{"b":2}}`, `{"files":{"a":"x"}}`, `{"exit":"0"}`} {
		var s Step
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("%s: %+v, no error", bad, s)
		}
	}
}
