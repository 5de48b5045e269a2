package transcript

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"

	"skein/internal/synth"
	"skein/model"
	"skein/theme"
)

var osc8 = regexp.MustCompile(`\x1b\]8;[^;\x07\x1b]*;([^\x07\x1b]*)(\x07|\x1b\\)`)

// hyperlinks lists the targets of the OSC 8 hyperlinks out opens, and
// checks that each shows a piece of its own target (glamour splits a link
// it wraps into one per line).
func hyperlinks(t *testing.T, out string) []string {
	t.Helper()
	var targets []string
	spans := osc8.FindAllStringSubmatchIndex(out, -1)
	for k, m := range spans {
		target := out[m[2]:m[3]]
		if target == "" {
			continue
		}
		if !slices.Contains(targets, target) {
			targets = append(targets, target)
		}
		end := len(out)
		if k+1 < len(spans) {
			end = spans[k+1][0]
		}
		if text := strings.TrimSpace(stripANSI(out[m[1]:end])); text == "" || !strings.Contains(target, text) {
			t.Errorf("a hyperlink to %q shows %q", target, text)
		}
	}
	return targets
}

// shown is out as a person reads it: no escape sequences, lines joined
// without their padding.
func shown(out string) string {
	s := osc8.ReplaceAllString(out, "")
	s = stripANSI(s)
	return strings.Join(strings.Fields(s), " ")
}

// A link is clickable only where its target is an http(s) address that is
// its text; any other shows its text and then its real target, and no
// javascript:, data:, file: or mailto: target is ever a hyperlink.
func TestLinksShowTheirRealTarget(t *testing.T) {
	cases := []struct {
		md        string
		show      []string // in the text as read
		clickable []string // every hyperlink target, in order
	}{
		{"see [https://github.com/safe/repo](http://evil.example/x) now",
			[]string{"see https://github.com/safe/repo (http://evil.example/x) now"}, nil},
		{"[safe/repo](http://evil.example/x)", []string{"safe/repo (http://evil.example/x)"}, nil},
		{"[https://github.com/safe/repo](https://github.com/safe/repo)",
			[]string{"https://github.com/safe/repo"}, []string{"https://github.com/safe/repo"}},
		{"[passwd](file:///etc/passwd) [run](javascript:alert(1)) [page](data:text/html,hi)",
			[]string{"passwd (file:///etc/passwd) run (javascript:alert(1)) page (data:text/html,hi)"}, nil},
		{"[javascript:alert(1)](javascript:alert(1))", []string{"javascript:alert(1)"}, nil},
		{"[file:///etc/passwd](file:///etc/passwd)", []string{"file:///etc/passwd"}, nil},
		{"[**https://a.example/**](https://a.example/)", []string{"https://a.example/ (https://a.example/)"}, nil},
		{"[https://github.com@evil.example/](https://github.com@evil.example/)", []string{"https://github.com@evil.exampl"}, nil},
		{"[ref] and [other][ref]\n\n[ref]: http://evil.example/ref",
			[]string{"ref (http://evil.example/ref) and other (http://evil.example/ref)"}, nil},
		{"bare https://example.com/b and mail x@y.example", []string{"https://example.com/b and mail x@y.example"},
			[]string{"https://example.com/b"}},
		{"![a logo](http://evil.example/i.png)", []string{"a logo", "http://evil.example/i.png"},
			[]string{"http://evil.example/i.png"}},
		{"| a |\n|---|\n| [x](http://evil.example/t) |", []string{"x (http://evil.example/t)"}, nil},
		{"- item https://example.com/a/very/long/path/that/wraps/around/the/width/of/thirty",
			[]string{"• item https://example."}, []string{"https://example.com/a/very/long/path/that/wraps/around/the/width/of/thirty"}},
	}
	for _, color := range []bool{true, false} {
		o := &Options{Width: 30, Styled: true, Color: color, Styles: theme.New(true)}
		for _, c := range cases {
			out := o.markdown(c.md)
			read := shown(out)
			for _, w := range c.show {
				if !strings.Contains(read, w) {
					t.Errorf("colour %v, %q: shows %q, not %q", color, c.md, read, w)
				}
			}
			if got := hyperlinks(t, out); !slices.Equal(got, c.clickable) {
				t.Errorf("colour %v, %q: hyperlinks %q, want %q\n%q", color, c.md, got, c.clickable, out)
			}
		}
	}
}

// foreign returns the first escape sequence or control in out that is not
// one of the renderer's own (SGR colours, OSC 8 to an allowed target), or "".
func foreign(out string) string {
	s := osc8.ReplaceAllStringFunc(out, func(m string) string {
		if t := osc8.FindStringSubmatch(m)[1]; t == "" || clickable(t) {
			return ""
		}
		return m
	})
	s = regexp.MustCompile(`\x1b\[[0-9;:]*m`).ReplaceAllString(s, "")
	for _, r := range s {
		switch {
		case r < 0x20 && r != '\n', r == 0x7F, r >= 0x80 && r <= 0x9F,
			r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
			i := strings.IndexRune(s, r)
			return s[max(0, i-10):min(len(s), i+20)]
		}
	}
	return ""
}

// Session text cannot put an escape sequence or a control on the terminal
// through markdown: not raw (sanitized first), not as character references
// that glamour decodes after the sanitizer ran (in text, code spans,
// strikethrough, raw HTML, link targets), and not as a hyperlink of its own.
func TestMarkdownWritesNoEscapeOfTheSession(t *testing.T) {
	inputs := append([]string{
		"text &#x1b;[8mhidden&#x1b;[0m and &#27;]0;title&#7; and &#X1B;]8;;http://evil.example/&#x07;link",
		"code `&#x1b;[8m` and ~~&\\#x1b;[8m~~ and ~~&#x1*b*;[8m~~ and ~~\\&#x1b;[8m~~",
		"c1 &#x9b;31m &#x8d; &#155;, bidi &#x202e;rtl &rlm; &lrm; &#x2066; &#x61c;",
		"[t](http://a/&#x1b;]8;;x&#x07;) [&#x1b;]8;;http://evil/&#7;x](http://evil/)",
		"\x1b]8;;http://evil.example/\x1b\\https://github.com/\x1b]8;;\x1b\\ and \u009b]8;;x\u009c",
		"| &#x1b;[8m | b |\n|---|---|\n| &#x9b;2J | &#x202e; |",
	}, synth.HostileText[:6]...)
	for _, color := range []bool{true, false} {
		o := &Options{Width: 60, Styled: true, Color: color, Styles: theme.New(true)}
		for _, in := range inputs {
			out := o.markdown(in)
			if bad := foreign(out); bad != "" {
				t.Errorf("colour %v, %q: writes %q", color, in, bad)
			}
			// The inputs hide text with SGR 8 (conceal), which is a colour
			// sequence to foreign and which glamour never writes itself.
			if strings.Contains(out, "\x1b[8m") {
				t.Errorf("colour %v, %q: writes SGR 8", color, in)
			}
		}
	}
	// Raw HTML, which skein escapes before glamour sees it, through the
	// renderer alone: glamour strips its tags and decodes what is left.
	r := newMarkdownRenderer(theme.Glamour(true), 60)
	for _, in := range []string{
		"<div>\n&#x1b;[8m hidden &#x9b;2J\n</div>",
		"inline <span title=\"&#x1b;\">&#x1b;[8m</span> &#x202e;",
	} {
		out, err := r.Render(in)
		if err != nil {
			t.Fatal(err)
		}
		if bad := foreign(out); bad != "" || strings.Contains(out, "\x1b[8m") {
			t.Errorf("%q: writes %q", in, out)
		}
	}
}

// What the renderer writes of its own passes: colours, and a hyperlink
// whose text is its http(s) target, even when glamour wraps it over lines
// and reopens it after the indentation. Any other link sequence is dropped
// and any other escape is shown.
func TestKeepOwnEscapes(t *testing.T) {
	const u = "https://example.com/long"
	open, closeLink := "\x1b]8;id=7;"+u+"\x07", "\x1b]8;;\x07"
	cases := []struct{ in, want string }{
		{"\x1b[1mbold\x1b[m", "\x1b[1mbold\x1b[m"},
		{open + "https://example.com/long" + closeLink, "\x1b]8;;" + u + "\x07" + u + closeLink},
		{open + "\x1b[4mhttps://exa\x1b[m" + closeLink + "\n  " + open + "mple.com/long" + closeLink,
			"\x1b]8;;" + u + "\x07\x1b[4mhttps://exa\x1b[m" + closeLink + "\n  \x1b]8;;" + u + "\x07mple.com/long" + closeLink},
		{open + "github.com" + closeLink, "github.com"},
		{"\x1b]8;;javascript:alert(1)\x07javascript:alert(1)\x1b]8;;\x07", "javascript:alert(1)"},
		{"\x1b]8;;file:///etc/passwd\x1b\\file:///etc/passwd\x1b]8;;\x1b\\", "file:///etc/passwd"},
		{open + u, u},                 // never closed
		{"a" + closeLink + "b", "ab"}, // closes nothing
		{"\x1b]0;title\x07 \x1b[2J \x1b[?25l \u009b1m \u202e", "␛]0;title␇ ␛[2J ␛[?25l ⟨U+009B⟩1m ⟨U+202E⟩"},
	}
	for _, c := range cases {
		if got := keepOwnEscapes(c.in); got != c.want {
			t.Errorf("keepOwnEscapes(%q)\n = %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestClickable(t *testing.T) {
	for u, want := range map[string]bool{
		"https://github.com/safe/repo": true,
		"http://example.com":           true,
		"HTTPS://EXAMPLE.COM/":         true,
		"javascript:alert(1)":          false,
		"data:text/html,hi":            false,
		"file:///etc/passwd":           false,
		"mailto:x@y.example":           false,
		"ftp://example.com/":           false,
		"https://github.com@evil.com/": false,
		"https:///nohost":              false,
		"https://ex ample.com/":        false,
		"https://exämple.com/":         false,
		"https://example.com/\x07":     false,
		"/relative/path":               false,
		"#anchor":                      false,
	} {
		if clickable(u) != want {
			t.Errorf("clickable(%q) = %v", u, !want)
		}
	}
}

// A long line of code wraps at a space, its rest indented under it: no
// token is cut in two (`*http.` / `Request) {`), at any width.
func TestCodeWrapsAtSpaces(t *testing.T) {
	text := "Here:\n\n```go\nfunc handler(w http.ResponseWriter, r *http.Request) {\n\treturn\n}\n```\n"
	for width := 30; width <= 90; width += 4 {
		o := &Options{Width: width, Styled: true, Color: true, Styles: theme.New(true)}
		plain := xansi.Strip(o.assistant(&model.Message{Role: model.RoleAssistant, Blocks: []model.Block{{Type: model.BlockText, Text: text}}}))
		for _, tok := range []string{"http.ResponseWriter,", "*http.Request)"} {
			if !strings.Contains(plain, tok) {
				t.Errorf("width %d: %q cut in two:\n%s", width, tok, plain)
			}
		}
	}
}
