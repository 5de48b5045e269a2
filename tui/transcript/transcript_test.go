package transcript

import (
	"strings"
	"testing"

	"skein/model"
	"skein/theme"

	"github.com/charmbracelet/x/ansi"
)

// The sanitizer itself is tested in internal/sanitize; these are the cases
// the transcript depends on.
func TestSanitize(t *testing.T) {
	cases := map[string]string{
		"plain text":             "plain text",
		"\x1b]0;pwned\x07":       "␛]0;pwned␇",
		"\x1b[2J\x1b[H":          "␛[2J␛[H",
		"\x1b]52;c;ZWNobw==\x07": "␛]52;c;ZWNobw==␇",
		"a\u009bb":               "a⟨U+009B⟩b",
		"tab\there":              "tab    here",
		"cr\rlf":                 "cr␍lf",
		"del\x7f":                "del␡",
		"bad \xff utf8":          "bad \uFFFD utf8",
		"line\u2028sep":          "line\nsep",
		"rtl \u202eevil":         "rtl ⟨U+202E⟩evil",
		"zero\u200bwidth":        "zero⟨U+200B⟩width",
		"emoji \U0001F469\u200d\U0001F4BB and \u00e9 (e\u0301)": "emoji \U0001F469\u200d\U0001F4BB and \u00e9 (e\u0301)",
	}
	for in, want := range cases {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
	if got := OneLine("  a\n b\tc  "); got != "a b c" {
		t.Errorf("OneLine = %q", got)
	}
}

func TestEscapeHTML(t *testing.T) {
	cases := map[string]string{
		"a <tag> b":              "a \\<tag> b",
		"code `<tag>` stays":     "code `<tag>` stays",
		"```\n<html>\n```\n<x>":  "```\n<html>\n```\n\\<x>",
		"    <indented code>":    "    <indented code>",
		"already \\<escaped>":    "already \\<escaped>",
		"``a ` <b>`` <c>":        "``a ` <b>`` \\<c>",
		"no angle brackets here": "no angle brackets here",
	}
	for in, want := range cases {
		if got := EscapeHTML(in); got != want {
			t.Errorf("EscapeHTML(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMarkdownKeepsTagsAndNeverEmitsRawControls(t *testing.T) {
	o := &Options{Width: 60, Styled: true, Color: true, Styles: theme.New(true)}
	out := o.markdown("a <tag> & \"quotes\" \x1b]0;title\x07")
	if !strings.Contains(stripANSI(out), "<tag>") {
		t.Errorf("tag lost: %q", out)
	}
	if strings.Contains(out, "\x07") || strings.Contains(out, "\x1b]0") {
		t.Errorf("raw control in output: %q", out)
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && !(s[j] >= 0x40 && s[j] <= 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// TestCodeIsHighlighted renders code blocks in a language whose lexer chroma
// writes in Go and one it loads from XML (skein's copy of chroma registers
// both on first use): keywords and names must be coloured differently.
func TestCodeIsHighlighted(t *testing.T) {
	o := &Options{Width: 60, Styled: true, Color: true, Styles: theme.New(true)}
	sgrBefore := func(out, word string) string {
		i := strings.Index(out, word)
		if i < 0 {
			t.Fatalf("%q not in %q", word, out)
		}
		j := strings.LastIndex(out[:i], "\x1b[")
		if j < 0 {
			return ""
		}
		return out[j:i]
	}
	for _, c := range []struct{ lang, code, keyword, name string }{
		{"go", "func answer() int { return 42 }", "func", "answer"},
		{"python", "def answer():\n    return 42", "def", "answer"},
	} {
		out := o.markdown("```" + c.lang + "\n" + c.code + "\n```")
		if k, n := sgrBefore(out, c.keyword), sgrBefore(out, c.name); k == "" || k == n {
			t.Errorf("%s: %q and %q styled alike (%q, %q): %q", c.lang, c.keyword, c.name, k, n, out)
		}
	}
}

// Expanded tool arguments are indented two spaces a level down to
// maxDepth and compact below it, so that their text grows with their bytes,
// not with the square of their depth.
func TestIndentJSONIsLinear(t *testing.T) {
	if got, want := indentJSON([]byte(`{"a":[1,{"b":"x,y"}]}`)), "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"x,y\"\n    }\n  ]\n}"; got != want {
		t.Errorf("indentJSON = %q, want %q", got, want)
	}
	const depth = 5000
	in := `{"a":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}"
	out := indentJSON([]byte(in))
	if limit := 2 * len(in); len(out) > limit {
		t.Errorf("%d levels: %d bytes of text for %d of JSON (at most %d)", depth, len(out), len(in), limit)
	}
	deepest := strings.Repeat("  ", maxDepth)
	if !strings.Contains(out, "\n"+deepest+strings.Repeat("[", 100)) || strings.Contains(out, deepest+" ") {
		t.Errorf("levels below %d are not compact:\n%.2000s", maxDepth, out)
	}
}

// Without colour, markdown is still rendered: bold is bold, not asterisks,
// and no colour escape is written.
func TestMarkdownWithoutColour(t *testing.T) {
	o := &Options{Styled: true, Color: false, Width: 60}
	out := o.markdown("Port **3000**, set in `src/server.ts`.")
	if strings.Contains(out, "**") || !strings.Contains(out, "3000") {
		t.Errorf("markup shown: %q", out)
	}
	if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
		t.Errorf("a colour without colour: %q", out)
	}
	if !strings.Contains(out, "\x1b[1m") && !strings.Contains(out, ";1m") && !strings.Contains(out, "[1;") {
		t.Errorf("no bold: %q", out)
	}
}

// A thinking block that kept only its signature (Claude Code's redacted
// thinking) says it is hidden, not that it holds 0 words; one with text
// counts its words, and shows them when asked.
func TestThinkingHiddenOrCounted(t *testing.T) {
	msg := &model.Message{Role: model.RoleAssistant, Blocks: []model.Block{
		{Type: model.BlockThinking, Text: ""}, {Type: model.BlockThinking, Text: "one two three"}}}
	o := &Options{Width: 60, Styles: theme.New(true)}
	out := ansi.Strip(o.assistant(msg))
	if !strings.Contains(out, "thinking (hidden)") || !strings.Contains(out, "thinking (3 words)") || strings.Contains(out, "0 words") {
		t.Errorf("collapsed: %q", out)
	}
	o.ShowThinking = true
	out = ansi.Strip(o.assistant(msg))
	if !strings.Contains(out, "thinking (hidden)") || !strings.Contains(out, "one two three") {
		t.Errorf("shown: %q", out)
	}
}

// A block with nothing to show right after thinking (Codex's encrypted
// reasoning) shares the thinking's line; alone it keeps its own.
func TestOpaqueBlockAfterThinkingIsQuiet(t *testing.T) {
	o := &Options{Width: 60, Styles: theme.New(true)}
	out := ansi.Strip(o.assistant(&model.Message{Role: model.RoleAssistant, Blocks: []model.Block{
		{Type: model.BlockThinking, Text: "a b"}, {Type: model.BlockOther, Name: "encrypted_content", DataLen: 40}}}))
	if strings.Count(out, "\n") != 0 || !strings.Contains(out, "thinking (2 words) · encrypted_content") {
		t.Errorf("after thinking: %q", out)
	}
	out = ansi.Strip(o.assistant(&model.Message{Role: model.RoleAssistant, Blocks: []model.Block{
		{Type: model.BlockOther, Name: "encrypted_content", DataLen: 40}}}))
	if !strings.Contains(out, "[encrypted_content block]") {
		t.Errorf("alone: %q", out)
	}
}
