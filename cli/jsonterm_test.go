package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// fakeTerminal is standard output that says it is a terminal.
type fakeTerminal struct{ bytes.Buffer }

func (*fakeTerminal) IsTerminal() bool { return true }

// skeinTo runs the CLI as skein does, with stdout written to out.
func skeinTo(t *testing.T, out io.Writer, args ...string) (stderr string, code int) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("PI_CODING_AGENT_DIR", "")
	t.Setenv("PI_CODING_AGENT_SESSION_DIR", "")
	var errb bytes.Buffer
	code = Run(args, strings.NewReader(""), out, &errb)
	return errb.String(), code
}

// terminalRaw returns the first character of out that JSON on a terminal
// must not hold raw, or -1.
func terminalRaw(out string) rune {
	for _, r := range out {
		if r < 0x20 && r != '\n' && r != '\t' && r != '\r' || r == 0x7F || escapedOnTerminal(r) {
			return r
		}
	}
	return -1
}

// decodeAll decodes out, one JSON value or one per line.
func decodeAll(t *testing.T, out string) []any {
	t.Helper()
	var vs []any
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("not JSON: %v\n%q", err, out)
		}
		vs = append(vs, v)
	}
	return vs
}

// Every --json command on a session whose every string is hostile: on a
// terminal, no C1 or bidi control is written raw and the JSON has the same
// values as into a pipe; into a pipe, the bytes are those skein writes
// there (pi's, raw U+009B included).
func TestJSONOnATerminalEscapesControls(t *testing.T) {
	offlineEnv(t)
	f := hostileSession(t)
	dir := filepath.Dir(f)
	for _, args := range [][]string{
		{"session", "list", "--json", dir},
		{"session", "context", "--json", f},
		{"session", "tree", "--json", "--all", f},
		{"session", "plan", "--json", "--keep-tokens", "1", f},
		{"stats", "--json", dir},
		{"session", "export", "--format", "json", f},
		{"search", "--json", "again", dir},
	} {
		var pipe bytes.Buffer
		var tty fakeTerminal
		if stderr, code := skeinTo(t, &pipe, args...); code != 0 {
			t.Fatalf("%+q into a pipe: exit %d %s", args, code, stderr)
		}
		if stderr, code := skeinTo(t, &tty, args...); code != 0 {
			t.Fatalf("%+q on a terminal: exit %d %s", args, code, stderr)
		}
		if r := terminalRaw(tty.String()); r >= 0 {
			t.Errorf("%+q: %U reaches the terminal raw", args, r)
		}
		// export gives the session a new id, and stamps it and its branches
		// with the time it runs.
		now := regexp.MustCompile(`("createdAt"|"updatedAt"|"meta":\{"id"): *"[^"]*"`)
		p, q := now.ReplaceAllString(pipe.String(), `$1:""`), now.ReplaceAllString(tty.String(), `$1:""`)
		if !reflect.DeepEqual(decodeAll(t, p), decodeAll(t, q)) {
			t.Errorf("%+q: the values differ on a terminal:\n%s\n%s", args, pipe.String(), tty.String())
		}
		if !strings.Contains(tty.String(), `\u`) {
			t.Errorf("%+q: nothing escaped on a terminal", args)
		}
	}
	// Into a pipe, pi's bytes: the C1 CSI and the override as they are.
	var pipe bytes.Buffer
	skeinTo(t, &pipe, "session", "context", "--json", f)
	if !strings.Contains(pipe.String(), "\u009b") || !strings.Contains(pipe.String(), "\u202e") {
		t.Errorf("into a pipe the output changed: %q", pipe.String())
	}
}

// The writer alone: each character rewritten whatever the writes that
// bring it (a character cut between two writes), the values the same,
// bytes that are not UTF-8 as the U+FFFD a decoder makes of them.
func TestTerminalJSONWriter(t *testing.T) {
	in := "{\"a\":\"x\u009b31m \u202eevil\u202c \u2066i\u2069 \u200e\u200f\u061c \u2028\u2029 \\u0007 é ✨ 多\",\n" +
		"\"b\":[\"\u0085\", \"bad \xff \xe2\x82 end\"], \"c\":\"\x7f\"}\n"
	want := `{"a":"x\u009b31m \u202eevil\u202c \u2066i\u2069 \u200e\u200f\u061c \u2028\u2029 \u0007 é ✨ 多",` + "\n" +
		`"b":["\u0085", "bad \ufffd \ufffd\ufffd end"], "c":"\u007f"}` + "\n"
	for cut := 0; cut <= len(in); cut++ {
		var out bytes.Buffer
		w := &terminalJSON{w: &out}
		for _, part := range []string{in[:cut], in[cut:]} {
			if n, err := w.Write([]byte(part)); n != len(part) || err != nil {
				t.Fatalf("cut %d: wrote %d of %d: %v", cut, n, len(part), err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Fatalf("cut %d:\n got %q\nwant %q", cut, out.String(), want)
		}
	}
	var a, b any
	if err := json.Unmarshal([]byte(in), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &b); err != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("values differ: %v\n%v\n%v", err, a, b)
	}
	// A character never completed is written as what a decoder makes of it.
	var out bytes.Buffer
	w := &terminalJSON{w: &out}
	w.Write([]byte(`"x` + "\xe2\x80"))
	w.Flush()
	if out.String() != `"x\ufffd\ufffd` {
		t.Errorf("unfinished character: %q", out.String())
	}
	// The caller's bytes are not written over.
	p := []byte("plain")
	w = &terminalJSON{w: io.Discard}
	w.Write([]byte("\u009b"))
	w.Write(p)
	w.Write([]byte("\u202e"))
	if string(p) != "plain" {
		t.Errorf("the caller's buffer changed: %q", p)
	}
}

func TestWantsJSON(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"--json", "REF"}, true},
		{[]string{"REF", "-json"}, true},
		{[]string{"--format", "json", "REF"}, true},
		{[]string{"--format=json", "REF"}, true},
		{[]string{"--format", "markdown", "REF"}, false},
		{[]string{"REF"}, false},
		{[]string{"--", "--json"}, false},
	} {
		if got := wantsJSON(c.args); got != c.want {
			t.Errorf("wantsJSON(%q) = %v", c.args, got)
		}
	}
}
