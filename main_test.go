package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
)

const webapp = "testdata/pi/store/--home-dev-webapp--"

func fixture(t *testing.T, dir, prefix string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, prefix+"*.jsonl"))
	if len(m) != 1 {
		t.Fatalf("fixture %s/%s*: %v", dir, prefix, m)
	}
	return m[0]
}

// skein runs the CLI in-process with an empty home, so that no real store
// is read.
func skein(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PI_CODING_AGENT_DIR", "")
	t.Setenv("PI_CODING_AGENT_SESSION_DIR", "")
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func TestExitCodesAndErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"--version"}, 0, ""},
		{[]string{"session"}, 2, "session needs a command"},
		{[]string{"session", "frobnicate"}, 2, "unknown session command"},
		{[]string{"session", "list", "--nope"}, 2, "unknown flag --nope"},
		{[]string{"session", "context", "--json"}, 2, "missing REF"},
		{[]string{"session", "plan", "--keep-tokens", "lots", "x"}, 2, "--keep-tokens wants a number"},
		{[]string{"session", "context", "--json", "no-such-session"}, 1, `no session "no-such-session"`},
		{[]string{"session", "context", "--json", "testdata/pi/broken/no-header.jsonl"}, 1, "not a pi session"},
		{[]string{"session", "context", "--json", "--leaf", "zzzz", fixture(t, webapp, "2026-03-02")}, 1, `has no entry "zzzz"`},
		{[]string{"session", "list", "/does/not/exist"}, 1, "no such file or folder"},
		{[]string{"doctor", "testdata/pi/broken"}, 1, ""},
		{[]string{"doctor", "testdata/pi/legacy"}, 0, ""},
	}
	for _, c := range cases {
		_, stderr, code := skein(t, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.code, stderr)
		}
		if c.err != "" && !strings.Contains(stderr, c.err) {
			t.Errorf("%v: stderr %q lacks %q", c.args, stderr, c.err)
		}
		if strings.Count(stderr, "\n") > 1 || strings.Contains(stderr, "goroutine") {
			t.Errorf("%v: stderr is not one line: %q", c.args, stderr)
		}
	}
}

func TestFlagsBeforeOrAfter(t *testing.T) {
	f := fixture(t, webapp, "2026-03-02")
	a, _, c1 := skein(t, "session", "context", "--json", f)
	b, _, c2 := skein(t, "session", "context", f, "--json")
	if c1 != 0 || c2 != 0 || a != b || !json.Valid([]byte(a)) {
		t.Errorf("flag position changes the output (exit %d, %d)", c1, c2)
	}
}

// TestContextMatchesReference checks the CLI's JSON, end to end, against pi.
func TestContextMatchesReference(t *testing.T) {
	for _, f := range []string{fixture(t, webapp, "2026-03-03"), fixture(t, "testdata/pi/store/--home-dev-tools--", "2026-03-04")} {
		out, _, code := skein(t, "session", "context", "--json", f)
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		delete(got, "entryIds")
		data, _ := os.ReadFile(filepath.Join("testdata/pi/expected", strings.TrimPrefix(f, "testdata/pi/")+".json"))
		var exp struct {
			Context map[string]any `json:"context"`
		}
		if err := json.Unmarshal(data, &exp); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, exp.Context) {
			t.Errorf("%s: context differs from pi's", f)
		}
	}
}

func TestListJSON(t *testing.T) {
	out, _, code := skein(t, "session", "list", "--json", "testdata/pi/store")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var infos []map[string]any
	if err := json.Unmarshal([]byte(out), &infos); err != nil {
		t.Fatal(err)
	}
	if len(infos) != 19 {
		t.Fatalf("%d sessions, want 19", len(infos))
	}
	keys := []string{"path", "format", "id", "cwd", "name", "parentSession", "created", "modified", "messageCount", "firstMessage"}
	for _, in := range infos {
		for _, k := range keys {
			if _, ok := in[k]; !ok {
				t.Errorf("record lacks %s", k)
			}
		}
	}
	for i := 1; i < len(infos); i++ {
		if infos[i-1]["modified"].(string) < infos[i]["modified"].(string) {
			t.Errorf("not newest first at %d", i)
		}
	}
	// An empty store is an empty array, not an error.
	out, _, code = skein(t, "session", "list", "--json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("empty store: %q exit %d", out, code)
	}
}

func TestShowIsSanitized(t *testing.T) {
	out, _, code := skein(t, "session", "show", fixture(t, "testdata/pi/store/--home-dév-多语言 project--", "2026"))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.ContainsAny(out, "\x1b\x07\u009b") {
		t.Errorf("raw control characters reach the output:\n%q", out)
	}
	for _, want := range []string{"␛]0;pwned title␇", "⟨U+009B⟩", "こんにちは", "👩‍👩‍👧‍👦"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q", want)
		}
	}
}

func TestTreeTextAndJSON(t *testing.T) {
	f := fixture(t, webapp, "2026-03-03")
	out, _, _ := skein(t, "session", "tree", f)
	if !strings.Contains(out, "› ") || !strings.Contains(out, "├⊟ user: Try Redis first.") || !strings.Contains(out, "(3/13)") {
		t.Errorf("tree text:\n%s", out)
	}
	out, _, _ = skein(t, "session", "tree", "--json", f)
	var roots []map[string]any
	if err := json.Unmarshal([]byte(out), &roots); err != nil || len(roots) != 2 {
		t.Errorf("tree json: %v, %d roots", err, len(roots))
	}
}

func TestRefByIDPrefix(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PI_CODING_AGENT_DIR", "")
	t.Setenv("PI_CODING_AGENT_SESSION_DIR", filepath.Join(home, "sessions"))
	src := fixture(t, webapp, "2026-03-02")
	data, _ := os.ReadFile(src)
	os.MkdirAll(filepath.Join(home, "sessions", "--x--"), 0o755)
	os.WriteFile(filepath.Join(home, "sessions", "--x--", filepath.Base(src)), data, 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{"session", "plan", "--json", "019cadc6", "--keep-tokens", "10"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), `{"firstKeptEntryId":`) {
		t.Errorf("plan: %s", out.String())
	}
}

// pi 0.73.1's createBranchedSession drops the label entries on the path,
// which orphans the entry after one: doctor must say so.
func TestDoctorFindsPisForkOrphan(t *testing.T) {
	out, _, code := skein(t, "doctor", "testdata/pi/store")
	if code != 1 || !strings.Contains(out, "2026-03-07T11-01-28-240Z_019cc7f5-9c30-7758-ba6d-88e94b65cd0b.jsonl:4: unknown parent") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, "9 files checked, 1 problems") {
		t.Errorf("summary:\n%s", out)
	}
}

// No file, however broken, makes a command panic or fail with anything but
// a clean exit status.
func TestEveryCommandOnBrokenFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/pi/broken/*.jsonl")
	legacy, _ := filepath.Glob("testdata/pi/legacy/*.jsonl")
	for _, f := range append(files, legacy...) {
		for _, args := range [][]string{
			{"session", "list", "--json", f}, {"session", "context", "--json", f}, {"session", "context", f},
			{"session", "tree", f}, {"session", "tree", "--json", f}, {"session", "show", f},
			{"session", "plan", f}, {"session", "plan", "--json", f}, {"doctor", f}, {"doctor", "--json", f},
			{"session", "compact", "--dry-run", "--summarizer", "extractive", f}, {"session", "replay", "--no-delay", f},
		} {
			out, stderr, code := skein(t, args...)
			if code != 0 && code != 1 {
				t.Errorf("%v: exit %d: %s", args, code, stderr)
			}
			if strings.Contains(args[len(args)-2], "json") && code == 0 && !json.Valid([]byte(out)) {
				t.Errorf("%v: invalid JSON", args)
			}
		}
	}
}

func copyInto(t *testing.T, src string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	os.WriteFile(dst, data, 0o644)
	return dst
}

func TestCompactExtractive(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	f := copyInto(t, fixture(t, webapp, "2026-03-02"))
	before, _ := os.ReadFile(f)
	out, stderr, code := skein(t, "session", "compact", f, "--keep-tokens", "10", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		ID, Summary, FirstKeptEntryID string
		TokensBefore                  float64
		ReadFiles, ModifiedFiles      []string
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(f)
	if !bytes.HasPrefix(after, before) || bytes.Count(after[len(before):], []byte("\n")) != 1 {
		t.Fatal("not one line appended to unchanged bytes")
	}
	plan, _, _ := skein(t, "session", "plan", "--json", f, "--leaf", res.FirstKeptEntryID)
	_ = plan
	var entry map[string]any
	json.Unmarshal(bytes.TrimSpace(after[len(before):]), &entry)
	if entry["type"] != "compaction" || entry["id"] != res.ID || entry["firstKeptEntryId"] == "" {
		t.Errorf("entry %v", entry)
	}
	if !strings.HasPrefix(res.Summary, "## Goal") || !strings.Contains(res.Summary, "<modified-files>\nsrc/server.ts\ntest/health.test.ts\n</modified-files>") {
		t.Errorf("summary:\n%s", res.Summary)
	}
	// Compacting again at the new leaf: it is a compaction, so nothing to do.
	_, stderr, code = skein(t, "session", "compact", f)
	if code != 1 || !strings.Contains(stderr, "Nothing to compact") {
		t.Errorf("second compact: exit %d %s", code, stderr)
	}
	// --dry-run writes nothing.
	g := copyInto(t, fixture(t, webapp, "2026-03-02"))
	gb, _ := os.ReadFile(g)
	if _, _, code := skein(t, "session", "compact", g, "--dry-run", "--keep-tokens", "10"); code != 0 {
		t.Errorf("dry run exit %d", code)
	}
	if ga, _ := os.ReadFile(g); !bytes.Equal(ga, gb) {
		t.Error("dry run wrote")
	}
	// pi 1.6.0 has nothing to compact when everything fits in the kept
	// tokens: refused, nothing written.
	_, stderr, code = skein(t, "session", "compact", g)
	if ga, _ := os.ReadFile(g); code != 1 || !strings.Contains(stderr, "Nothing to compact") || !bytes.Equal(ga, gb) {
		t.Errorf("nothing to summarize: exit %d %s", code, stderr)
	}
	// --summarizer llm without a model says so.
	_, stderr, code = skein(t, "session", "compact", g, "--summarizer", "llm", "--keep-tokens", "10")
	if code != 1 || !strings.Contains(stderr, "no language model configured") {
		t.Errorf("llm without a model: exit %d %s", code, stderr)
	}
}

func TestForkLabelRenameDeleteCommands(t *testing.T) {
	f := copyInto(t, fixture(t, webapp, "2026-03-03"))
	out, stderr, code := skein(t, "session", "fork", f, "--at", "d20164ee", "--json")
	if code != 0 {
		t.Fatalf("fork: exit %d %s", code, stderr)
	}
	var fk struct{ Path, ParentSession, ID string }
	json.Unmarshal([]byte(out), &fk)
	abs, _ := filepath.Abs(f)
	if filepath.Dir(fk.Path) != filepath.Dir(f) || fk.ParentSession != abs || len(fk.ID) != 36 {
		t.Errorf("fork %+v", fk)
	}
	out, _, code = skein(t, "session", "fork", f, "--at", "d20164ee", "--before", "--json")
	if code != 0 || !strings.Contains(out, `"message":"Try Redis first."`) {
		t.Errorf("fork --before: %d %s", code, out)
	}
	if _, stderr, code := skein(t, "session", "fork", f, "--at", "a5f70014", "--before"); code != 1 || !strings.Contains(stderr, "needs a user message") {
		t.Errorf("--before on an assistant message: %d %s", code, stderr)
	}
	if _, _, code := skein(t, "session", "label", f, "d20164ee", "redis path"); code != 0 {
		t.Error("label")
	}
	if _, _, code := skein(t, "session", "rename", f, "Renamed"); code != 0 {
		t.Error("rename")
	}
	list, _, _ := skein(t, "session", "list", "--json", f)
	if !strings.Contains(list, `"name":"Renamed"`) {
		t.Errorf("list after rename: %s", list)
	}
	tree, _, _ := skein(t, "session", "tree", "--json", f)
	if !strings.Contains(tree, `"label":"redis path"`) {
		t.Error("label not in the tree")
	}
	v1 := copyInto(t, "testdata/pi/legacy/v1.jsonl")
	v1b, _ := os.ReadFile(v1)
	if _, stderr, code := skein(t, "session", "rename", v1, "x"); code != 1 || !strings.Contains(stderr, "fork") {
		t.Errorf("rename of v1: %d %s", code, stderr)
	}
	if after, _ := os.ReadFile(v1); !bytes.Equal(after, v1b) {
		t.Error("v1 file changed")
	}
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	out, _, code = skein(t, "session", "delete", fk.Path, "--json")
	if code != 0 || !strings.Contains(out, `"trashInfo"`) {
		t.Errorf("delete: %d %s", code, out)
	}
	if _, err := os.Stat(fk.Path); !os.IsNotExist(err) {
		t.Error("deleted file still there")
	}
}

// The replay of a session with model and thinking changes, tool calls and a
// name, piped: plain text, entry by entry, with the session clock.
func TestReplayGolden(t *testing.T) {
	time.Local = time.UTC
	out, stderr, code := skein(t, "session", "replay", "--no-delay", fixture(t, webapp, "2026-03-02"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden.RequireEqual(t, out)
	// At another leaf: the path to it only.
	out, _, _ = skein(t, "session", "replay", "--no-delay", "--leaf", "a5f70014", fixture(t, webapp, "2026-03-03"))
	if strings.Count(out, "[0:") != 2 || !strings.Contains(out, "Both work.") {
		t.Errorf("replay to a5f70014:\n%s", out)
	}
}
