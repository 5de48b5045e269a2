package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const webapp = "../testdata/pi/store/--home-dev-webapp--"

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
	t.Setenv("XDG_CACHE_HOME", "")  // the index goes under the test's HOME
	t.Setenv("XDG_CONFIG_HOME", "") // no price table of the user's
	t.Setenv("PI_CODING_AGENT_DIR", "")
	t.Setenv("PI_CODING_AGENT_SESSION_DIR", "")
	var out, errb bytes.Buffer
	code = Run(args, strings.NewReader(""), &out, &errb)
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
		{[]string{"session", "context", "--json", "../testdata/pi/broken/no-header.jsonl"}, 1, "not a pi session"},
		{[]string{"session", "context", "--json", "--leaf", "zzzz", fixture(t, webapp, "2026-03-02")}, 1, `has no entry "zzzz"`},
		{[]string{"session", "list", "/does/not/exist"}, 1, "no such file or folder"},
		{[]string{"doctor", "../testdata/pi/broken"}, 1, ""},
		{[]string{"doctor", "../testdata/pi/legacy"}, 0, ""},
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

func TestRefByIDPrefix(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "") // the index goes under the test's HOME
	t.Setenv("PI_CODING_AGENT_DIR", "")
	t.Setenv("PI_CODING_AGENT_SESSION_DIR", filepath.Join(home, "sessions"))
	src := fixture(t, webapp, "2026-03-02")
	data, _ := os.ReadFile(src)
	os.MkdirAll(filepath.Join(home, "sessions", "--x--"), 0o755)
	os.WriteFile(filepath.Join(home, "sessions", "--x--", filepath.Base(src)), data, 0o644)
	var out, errb bytes.Buffer
	if code := Run([]string{"session", "plan", "--json", "019cadc6", "--keep-tokens", "10"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), `{"firstKeptEntryId":`) {
		t.Errorf("plan: %s", out.String())
	}
}

// No file, however broken, makes a command panic or fail with anything but
// a clean exit status.
func TestEveryCommandOnBrokenFiles(t *testing.T) {
	files, _ := filepath.Glob("../testdata/pi/broken/*.jsonl")
	legacy, _ := filepath.Glob("../testdata/pi/legacy/*.jsonl")
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

// session list keeps an index under the cache folder: the second list
// gives the same records, and an append shows at once.
func TestListKeepsAnIndex(t *testing.T) {
	dir := t.TempDir()
	src := fixture(t, webapp, "2026-03-02")
	data, _ := os.ReadFile(src)
	path := filepath.Join(dir, filepath.Base(src))
	os.WriteFile(path, data, 0o644)
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	first, _, code := skeinIn(t, home, "session", "list", "--json", dir)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(home, "cache", "skein", "list.idx")); err != nil {
		t.Fatalf("no index: %v", err)
	}
	second, _, _ := skeinIn(t, home, "session", "list", "--json", dir)
	if second != first {
		t.Errorf("the warm list differs:\n%s\n%s", second, first)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"session_info","id":"feed0001","parentId":null,"timestamp":"2026-12-01T10:00:00.000Z","name":"renamed by an agent"}` + "\n")
	f.Close()
	third, _, _ := skeinIn(t, home, "session", "list", "--json", dir)
	if !strings.Contains(third, `"name":"renamed by an agent"`) {
		t.Errorf("the append is not listed: %s", third)
	}
}

// skeinIn is skein with HOME at home and the environment left as the test
// set it.
func skeinIn(t *testing.T, home string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Setenv("HOME", home)
	t.Setenv("PI_CODING_AGENT_DIR", "")
	t.Setenv("PI_CODING_AGENT_SESSION_DIR", "")
	var out, errb bytes.Buffer
	code = Run(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}
