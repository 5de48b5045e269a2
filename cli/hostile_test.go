package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"skein/internal/jsjson"
	"skein/internal/sanitize"
)

// js is s as a JSON string literal, as pi writes it: control characters
// escaped, C1 controls, bidi and zero-width characters as they are.
func js(s string) string { return string(jsjson.AppendString(nil, s)) }

// Hostile values: what a session file can hold in its ids, roles, names and
// paths. Each would do something to a terminal printed raw.
const (
	osc52    = "\x1b]52;c;cHduZWQ=\x07" // writes the clipboard
	title    = "\x1b]0;pwned\x07"       // sets the window title
	csi      = "\x1b[2J\x1b[H"          // clears the screen
	c1       = "\u009b31m"              // a C1 CSI
	override = "\u202e"                 // right-to-left override
	isolate  = "\u2066\u2069"
	zw       = "\u200b\ufeff\u2060"
	zwj      = "a\u200db" // a joiner between letters, not emoji
)

var (
	hostileUser  = "u" + osc52
	hostileAsst  = "a" + c1
	hostileTool  = "r" + zw
	hostileAsst2 = "b" + isolate
	hostileRole  = "k" + title
	hostileComp  = "c" + csi
	hostileAfter = "z" + override
	hostileLast  = "y" + "\u200e\u200f\u061c"
)

// hostileSession writes a session whose every id, role, model, thinking
// level, label, name, path and cwd is hostile, in a folder and under a
// file name that are hostile too, and returns its path.
func hostileSession(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj"+title+override)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ts := `"timestamp":"2026-03-02T09:00:00.000Z"`
	entry := func(typ, id, parent string, rest string) string {
		p := "null"
		if parent != "" {
			p = js(parent)
		}
		return `{"type":"` + typ + `","id":` + js(id) + `,"parentId":` + p + `,` + ts + rest + `}`
	}
	usage := `,"usage":{"input":1200,"output":300,"cacheRead":0,"cacheWrite":0,"totalTokens":1500,"cost":{"input":0.0036,"output":0.0045,"cacheRead":0,"cacheWrite":0,"total":0.0081}}`
	lines := []string{
		`{"type":"session","version":3,"id":` + js("019"+osc52) + `,` + ts + `,"cwd":` + js("/home/"+osc52+"/"+override+"evil"+zw) + `}`,
		entry("model_change", "m"+csi, "", `,"provider":`+js("red"+csi+c1)+`,"modelId":`+js("claude"+override+"5")),
		entry("thinking_level_change", "t"+override, "m"+csi, `,"thinkingLevel":`+js("high"+title)),
		entry("message", hostileUser, "t"+override, `,"message":{"role":"user","content":`+js("hello "+osc52+" "+zwj)+`,"timestamp":1772442000000}`),
		entry("message", hostileAsst, hostileUser, `,"message":{"role":"assistant","content":[{"type":"text","text":`+js("ok "+isolate)+`},{"type":"toolCall","id":"tc1","name":`+js("read"+csi)+`,"arguments":{"path":`+js("/etc/"+osc52+override)+`}}],"api":"anthropic-messages","provider":`+js("anthropic"+csi)+`,"model":`+js("sonnet"+c1)+usage+`,"stopReason":"toolUse","timestamp":1772442001000}`),
		entry("message", hostileTool, hostileAsst, `,"message":{"role":"toolResult","toolCallId":"tc1","toolName":`+js("read"+csi)+`,"content":[{"type":"text","text":`+js("file "+csi)+`}],"isError":false,"timestamp":1772442002000}`),
		entry("message", hostileAsst2, hostileTool, `,"message":{"role":"assistant","content":[{"type":"text","text":"done"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5"`+usage+`,"stopReason":"stop","timestamp":1772442003000}`),
		entry("message", hostileRole, hostileAsst2, `,"message":{"role":`+js("role"+title+override)+`,"content":"x","timestamp":1772442004000}`),
		entry("label", "l"+csi, hostileRole, `,"targetId":`+js(hostileUser)+`,"label":`+js("lab "+zwj+" "+osc52)),
		entry("message", "o"+override, "p"+osc52, `,"message":{"role":"user","content":"an orphan","timestamp":1772442005000}`),
		entry("session_info", "n"+zw, "l"+csi, `,"name":`+js("name"+title+override)),
		entry("compaction", hostileComp, "n"+zw, `,"summary":`+js("sum "+csi)+`,"firstKeptEntryId":`+js(hostileAsst2)+`,"tokensBefore":1234,"details":{"readFiles":[`+js("/x/"+csi)+`],"modifiedFiles":[`+js(override+"b")+`]}`),
		entry("message", hostileAfter, hostileComp, `,"message":{"role":"user","content":`+js("again "+c1)+`,"timestamp":1772442006000}`),
		entry("message", hostileLast, hostileAfter, `,"message":{"role":"assistant","content":[{"type":"text","text":"fine"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5"`+usage+`,"stopReason":"stop","timestamp":1772442007000}`),
	}
	path := filepath.Join(dir, "2026-03-02T09-00-00-000Z_"+osc52+zw+".jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// rawControl returns the first rune of out that session text must never
// put on a terminal, or -1: C0 controls but newline and tab, DEL, C1
// controls, bidi controls, zero-width and other invisible characters (the
// fixture has no emoji, so no joiner in it is legitimate).
func rawControl(out string) rune {
	for _, r := range out {
		switch {
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7F, r >= 0x80 && r <= 0x9F,
			r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r >= 0x200B && r <= 0x200F, r == 0x061C,
			r >= 0x2060 && r <= 0x2064, r == 0xFEFF, r == 0x2028, r == 0x2029:
			return r
		}
	}
	return -1
}

// Every command's text output and every error message, on a session where
// everything is hostile: nothing reaches the terminal raw, and what was
// hostile is still there to see, as placeholders.
func TestNoSessionTextReachesTheTerminalRaw(t *testing.T) {
	offlineEnv(t)
	f := hostileSession(t)
	dir := filepath.Dir(f)
	notSession := filepath.Join(dir, "bad"+title+".jsonl")
	os.WriteFile(notSession, []byte("not json\n"), 0o644)
	// Copies beside it, in the hostile folder, for the commands that write.
	n := 0
	copyOf := func() string {
		n++
		data, _ := os.ReadFile(f)
		p := filepath.Join(dir, fmt.Sprintf("copy%d%s.jsonl", n, osc52))
		os.WriteFile(p, data, 0o644)
		return p
	}

	const shownOSC52 = "␛]52;c;cHduZWQ=␇"
	cases := []struct {
		args []string
		want []string // shown, as placeholders
	}{
		{[]string{"session", "list", dir}, []string{"␛]52;c;", "⟨U+202E⟩"}},
		{[]string{"session", "context", f}, []string{"c␛[2J␛[H  compactionSummary", "high␛]0;pwned␇", "role␛]0;pwned␇⟨U+202E⟩", "y⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩"}},
		{[]string{"session", "context", "--leaf", hostileUser, f}, []string{"u" + shownOSC52, "red␛[2J␛[H⟨U+009B⟩31m/claude⟨U+202E⟩5"}},
		{[]string{"session", "context", "--leaf", hostileAsst, f}, []string{"anthropic␛[2J␛[H/sonnet⟨U+009B⟩31m"}},
		{[]string{"session", "tree", f}, []string{"lab a⟨U+200D⟩b"}},
		{[]string{"session", "tree", "--filter", "all", f}, []string{"role␛]0;pwned␇"}},
		{[]string{"session", "show", "--thinking", "--tools", f}, []string{"name␛]0;pwned␇⟨U+202E⟩"}},
		{[]string{"session", "show", "--leaf", hostileTool, "--tools", f}, []string{"/etc/" + shownOSC52}},
		{[]string{"session", "plan", "--keep-tokens", "1", f}, []string{"y⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩", "c␛[2J␛[H", "/x/␛[2J␛[H", "⟨U+202E⟩b"}},
		{[]string{"session", "plan", "--keep-tokens", "1", "--leaf", hostileRole, f}, []string{"b⟨U+2066⟩⟨U+2069⟩"}},
		{[]string{"session", "replay", "--no-delay", f}, []string{"again ⟨U+009B⟩"}},
		{[]string{"doctor", dir}, []string{"2026-03-02T09-00-00-000Z_" + shownOSC52, "p" + shownOSC52, "bad␛]0;pwned␇.jsonl"}},
		{[]string{"session", "fork", copyOf(), "--at", hostileAfter}, []string{"proj␛]0;pwned␇⟨U+202E⟩"}},
		{[]string{"session", "fork", copyOf(), "--at", hostileAfter, "--before"}, []string{"again ⟨U+009B⟩"}},
		{[]string{"session", "compact", copyOf(), "--summarizer", "extractive", "--keep-tokens", "1", "--dry-run"}, []string{"y⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩"}},
		{[]string{"session", "compact", copyOf(), "--summarizer", "extractive", "--keep-tokens", "1"}, []string{"kept from y⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩"}},
		{[]string{"session", "label", copyOf(), hostileAsst, "new" + osc52}, []string{"a⟨U+009B⟩31m"}},
		{[]string{"session", "label", copyOf(), hostileAsst}, []string{"a⟨U+009B⟩31m"}},
		{[]string{"session", "rename", copyOf(), "x" + title}, []string{"proj␛]0;pwned␇"}},
		{[]string{"session", "delete", copyOf()}, []string{"proj␛]0;pwned␇⟨U+202E⟩/copy", "Trash/files/copy"}},
		// Errors that quote ids, roles and paths.
		{[]string{"session", "context", "--leaf", "q" + osc52, f}, []string{"proj␛]0;pwned␇"}},
		{[]string{"session", "fork", f, "--at", "q" + osc52}, nil},
		{[]string{"session", "fork", f, "--at", hostileRole, "--before"}, []string{"role␛]0;pwned␇⟨U+202E⟩ message"}},
		{[]string{"session", "show", "q" + osc52}, nil},
		{[]string{"session", "show", notSession}, []string{"bad␛]0;pwned␇.jsonl"}},
		{[]string{"session", "list", filepath.Join(dir, "none"+osc52)}, []string{"none" + shownOSC52}},
		{[]string{"session", "label", notSession, "x", "y"}, nil},
	}
	for _, c := range cases {
		stdout, stderr, code := skein(t, c.args...)
		if code != 0 && code != 1 {
			t.Errorf("%+q: exit %d: %s", c.args, code, stderr)
		}
		for name, out := range map[string]string{"stdout": stdout, "stderr": stderr} {
			if !utf8.ValidString(out) {
				t.Errorf("%+q: %s is not UTF-8", c.args, name)
			}
			if r := rawControl(out); r >= 0 {
				t.Errorf("%+q: %U reaches %s raw:\n%s", c.args, r, name, out)
			}
		}
		for _, w := range c.want {
			if !strings.Contains(stdout+stderr, w) {
				t.Errorf("%+q: output lacks %q:\n%s%s", c.args, w, stdout, stderr)
			}
		}
	}
}

// invalidSession writes a session with bytes that are not UTF-8 in every
// kind of string, in a folder and under a file name that are not UTF-8
// either, and returns its path.
func invalidSession(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "d\xed\xa0\x80")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lines := []string{
		"{\"type\":\"session\",\"version\":3,\"id\":\"019\xff\",\"timestamp\":\"2026-03-02T09:00:00.000Z\",\"cwd\":\"/home/\xc0\xaf/\xf4\x90\x80\x80\"}",
		"{\"type\":\"model_change\",\"id\":\"m1\",\"parentId\":null,\"timestamp\":\"2026-03-02T09:00:00.000Z\",\"provider\":\"an\xe2\x82thropic\",\"modelId\":\"claude\xf0\x9f\x98\"}",
		"{\"type\":\"thinking_level_change\",\"id\":\"t1\",\"parentId\":\"m1\",\"timestamp\":\"2026-03-02T09:00:00.000Z\",\"thinkingLevel\":\"hi\x80gh\"}",
		"{\"type\":\"message\",\"id\":\"a\xe2\x82\",\"parentId\":\"t1\",\"timestamp\":\"2026-03-02T09:00:01.000Z\",\"message\":{\"role\":\"user\",\"content\":\"read \xed\xa0\x80 please \\u0041\",\"timestamp\":1772442001000}}",
		"{\"type\":\"message\",\"id\":\"b1\",\"parentId\":\"a\xe2\x82\",\"timestamp\":\"2026-03-02T09:00:02.000Z\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"toolCall\",\"id\":\"tc1\",\"name\":\"read\",\"arguments\":{\"path\":\"src/\xe2\x82.go\"}}],\"provider\":\"an\xe2\x82thropic\",\"model\":\"claude\xf0\x9f\x98\",\"usage\":{\"input\":1.0,\"output\":2E1,\"cacheRead\":0,\"cacheWrite\":0,\"totalTokens\":21,\"cost\":{\"total\":0}},\"stopReason\":\"toolUse\",\"timestamp\":1772442002000}}",
		"{\"type\":\"message\",\"id\":\"c1\",\"parentId\":\"b1\",\"timestamp\":\"2026-03-02T09:00:03.000Z\",\"message\":{\"role\":\"toolResult\",\"toolCallId\":\"tc1\",\"toolName\":\"read\",\"content\":[{\"type\":\"text\",\"text\":\"\xf0\x9f\x98 \xc3\xa9 \xe2\x80\xa8<>&\"}],\"isError\":false,\"timestamp\":1772442003000}}",
		"{\"type\":\"label\",\"id\":\"l1\",\"parentId\":\"c1\",\"timestamp\":\"2026-03-02T09:00:03.500Z\",\"targetId\":\"a\xe2\x82\",\"label\":\"la\xffbel\"}",
		"{\"type\":\"message\",\"id\":\"f1\",\"parentId\":\"nowhere\xff\",\"timestamp\":\"2026-03-02T09:00:07.000Z\",\"message\":{\"role\":\"user\",\"content\":\"orphan\",\"timestamp\":1772442007000}}",
		"{\"type\":\"session_info\",\"id\":\"n1\",\"parentId\":\"l1\",\"timestamp\":\"2026-03-02T09:00:03.600Z\",\"name\":\"na\xe2\x82me\"}",
		"{\"type\":\"compaction\",\"id\":\"k1\",\"parentId\":\"n1\",\"timestamp\":\"2026-03-02T09:00:04.000Z\",\"summary\":\"sum\xff\",\"firstKeptEntryId\":\"b1\",\"tokensBefore\":1E3,\"details\":{\"readFiles\":[\"src/\xe2\x82.go\"],\"modifiedFiles\":[]}}",
		"{\"type\":\"message\",\"id\":\"d1\",\"parentId\":\"k1\",\"timestamp\":\"2026-03-02T09:00:05.000Z\",\"message\":{\"role\":\"user\",\"content\":\"again \xe2\x82\",\"timestamp\":1772442005000}}",
		"{\"type\":\"message\",\"id\":\"e1\",\"parentId\":\"d1\",\"timestamp\":\"2026-03-02T09:00:06.000Z\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-5\",\"usage\":{\"input\":10,\"output\":2,\"cacheRead\":0,\"cacheWrite\":0,\"totalTokens\":12,\"cost\":{\"total\":0}},\"stopReason\":\"stop\",\"timestamp\":1772442006000}}",
	}
	path := filepath.Join(dir, "s\xff\xe2\x82.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// strictJSON fails unless out is UTF-8 and JSON to Go's encoding/json and
// to Python's json module (when python3 is installed).
func strictJSON(t *testing.T, what string, out []byte) any {
	t.Helper()
	if !utf8.Valid(out) {
		t.Errorf("%s: not UTF-8: %q", what, out)
	}
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Errorf("%s: encoding/json: %v\n%s", what, err, out)
	}
	if py, err := exec.LookPath("python3"); err == nil {
		cmd := exec.Command(py, "-c", `import json,sys; json.loads(sys.stdin.buffer.read().decode("utf-8", "strict"))`)
		cmd.Stdin = bytes.NewReader(out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: python3's json: %v\n%s", what, err, msg)
		}
	}
	return v
}

// Every --json output, on a file whose strings are not all UTF-8: valid
// UTF-8 JSON, with each ill-formed sequence one U+FFFD as pi reads it, and
// numbers as JSON.stringify writes them.
func TestJSONOutputIsValidUTF8(t *testing.T) {
	offlineEnv(t)
	f := invalidSession(t)
	dir := filepath.Dir(f)
	cases := []struct {
		args []string
		want []string // in the output, exactly
	}{
		{[]string{"session", "list", "--json", dir}, []string{`"id":"019` + "\uFFFD" + `"`, `"cwd":"/home/` + "\uFFFD\uFFFD/\uFFFD\uFFFD\uFFFD\uFFFD" + `"`, `s` + "\uFFFD\uFFFD" + `.jsonl"`, `/d` + "\uFFFD\uFFFD\uFFFD" + `/`, `"name":"na` + "\uFFFD" + `me"`}},
		{[]string{"session", "context", "--json", f}, []string{`"tokensBefore":1000`, `"summary":"sum` + "\uFFFD" + `"`, `"thinkingLevel":"hi` + "\uFFFD" + `gh"`, `"model":{"provider":"anthropic","modelId":"claude-sonnet-4-5"}`}},
		{[]string{"session", "context", "--json", "--leaf", "c1", f}, []string{`"content":"read ` + "\uFFFD\uFFFD\uFFFD" + ` please A"`, `"input":1,"output":20`, `"provider":"an` + "\uFFFD" + `thropic","model":"claude` + "\uFFFD" + `"`, "\u2028<>&", `"entryIds":["a` + "\uFFFD" + `","b1","c1"]`}},
		{[]string{"session", "tree", "--json", f}, []string{`"id":"a` + "\uFFFD" + `"`, `"label":"la` + "\uFFFD" + `bel"`}},
		{[]string{"session", "plan", "--json", "--keep-tokens", "1", f}, []string{`"readFiles":["src/` + "\uFFFD" + `.go"]`}},
		{[]string{"doctor", "--json", dir}, []string{`s` + "\uFFFD\uFFFD" + `.jsonl"`, `nowhere` + "\uFFFD"}},
		{[]string{"session", "fork", "--json", copyInto(t, f), "--at", "c1"}, nil},
		{[]string{"session", "fork", "--json", copyInto(t, f), "--at", "d1", "--before"}, []string{`"message":"again ` + "\uFFFD" + `"`}},
		{[]string{"session", "compact", "--json", "--dry-run", "--summarizer", "extractive", "--keep-tokens", "1", copyInto(t, f)}, []string{"src/\uFFFD.go"}},
		{[]string{"session", "compact", "--json", "--summarizer", "extractive", "--keep-tokens", "1", copyInto(t, f)}, nil},
		{[]string{"session", "delete", "--json", copyInto(t, f)}, []string{`s` + "\uFFFD\uFFFD" + `.jsonl"`}},
	}
	for _, c := range cases {
		stdout, stderr, code := skein(t, c.args...)
		if code != 0 && !(code == 1 && c.args[0] == "doctor") {
			t.Errorf("%+q: exit %d: %s", c.args, code, stderr)
			continue
		}
		strictJSON(t, strings.Join(c.args, " "), []byte(stdout))
		for _, w := range c.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%+q: output lacks %+q:\n%s", c.args, w, stdout)
			}
		}
	}
}

// The resume command fork prints can be pasted into a shell: nothing in a
// folder's name is expanded.
func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/home/dev/s/2026_019c.jsonl":   "/home/dev/s/2026_019c.jsonl",
		"/home/dev/my project/s.jsonl":  "'/home/dev/my project/s.jsonl'",
		"/tmp/$(rm -rf ~)/`id`/s.jsonl": "'/tmp/$(rm -rf ~)/`id`/s.jsonl'",
		"/tmp/it's/s.jsonl":             `'/tmp/it'\''s/s.jsonl'`,
		"":                              "''",
	} {
		if got := sanitize.ShellQuote(in); got != want {
			t.Errorf("sanitize.ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// offlineEnv is an environment with no model configured and a trash of the
// test's own.
func offlineEnv(t *testing.T) {
	t.Helper()
	t.Setenv("ANTHROPIC_API_KEY", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("XDG_DATA_HOME", t.TempDir())
}
