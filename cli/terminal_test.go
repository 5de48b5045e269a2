package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	sgrSeq  = regexp.MustCompile(`\x1b\[[0-9;:]*m`)
	osc8Seq = regexp.MustCompile(`\x1b\]8;[^;\x07\x1b]*;([^\x07\x1b]*)(\x07|\x1b\\)`)
)

// The commands that style their output when it is a terminal (show,
// replay) render markdown: on a session whose text is hostile, what they
// write holds colours and nothing else of its own, a link's real target
// is shown and no link but one whose text is its http(s) target is a
// hyperlink.
func TestStyledOutputOnATerminal(t *testing.T) {
	offlineEnv(t)
	t.Setenv("NO_COLOR", "")
	dir := filepath.Join(t.TempDir(), "--links--")
	os.MkdirAll(dir, 0o755)
	text := "See [https://github.com/safe/repo](http://evil.example/x) and [notes](file:///etc/passwd). " +
		"&#x1b;]0;pwned&#x07; &#x1b;[8mhidden &#x9b;31m &#x202e;rtl \u009b31m \u202e " + osc52 +
		" &#x1b;]8;;http://evil.example/y&#x07;here&#x1b;]8;;&#x07;"
	f := filepath.Join(dir, "2026-03-02T09-00-00-000Z_019cb7dc-6400-7181-b9fd-000000000002.jsonl")
	lines := []string{
		`{"type":"session","version":3,"id":"019cb7dc-6400-7181-b9fd-000000000002","timestamp":"2026-03-02T09:00:00.000Z","cwd":"/x"}`,
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-03-02T09:00:01.000Z","message":{"role":"user","content":` + js(text) + `,"timestamp":1772442001000}}`,
		`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-03-02T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":` + js(text) + `}],"provider":"anthropic","model":"m","stopReason":"stop","timestamp":1772442002000}}`,
	}
	os.WriteFile(f, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	hostile := hostileSession(t)
	for _, args := range [][]string{
		{"session", "show", f},
		{"session", "replay", "--no-delay", f},
		{"session", "show", "--thinking", "--tools", hostile},
		{"session", "replay", "--no-delay", hostile},
	} {
		var tty fakeTerminal
		if stderr, code := skeinTo(t, &tty, args...); code != 0 {
			t.Fatalf("%+q: exit %d %s", args, code, stderr)
		}
		out := tty.String()
		if !strings.Contains(out, "\x1b[") {
			t.Errorf("%+q: not styled", args)
		}
		for _, m := range osc8Seq.FindAllStringSubmatch(out, -1) {
			if m[1] != "" {
				t.Errorf("%+q: a hyperlink to %q", args, m[1])
			}
		}
		rest := sgrSeq.ReplaceAllString(osc8Seq.ReplaceAllString(out, ""), "")
		if r := rawControl(rest); r >= 0 {
			i := strings.IndexRune(rest, r)
			t.Errorf("%+q: %U reaches the terminal raw: %q", args, r, rest[max(0, i-20):min(len(rest), i+20)])
		}
		if strings.Contains(out, "\x1b[8m") {
			t.Errorf("%+q: session text hides text (SGR 8)", args)
		}
		if args[len(args)-1] == f {
			read := strings.Join(strings.Fields(sgrSeq.ReplaceAllString(out, "")), " ")
			for _, want := range []string{"https://github.com/safe/repo (http://evil.example/x)", "notes (file:///etc/passwd)", "␛]0;pwned␇", "⟨U+009B⟩31m", "⟨U+202E⟩rtl"} {
				if !strings.Contains(read, want) {
					t.Errorf("%+q: lacks %q:\n%s", args, want, read)
				}
			}
		}
	}
}
