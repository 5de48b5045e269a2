package export

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"skein/store"
)

// The assistant's markdown renders as it wrote it: its fences, lists,
// links and tables are goldmark's <pre>, <ul>, <a> and <table>; a person's
// words keep their dashes, dots and slashes with no backslash before
// them; what must not pass is text.
func TestMarkdownReadsAsWritten(t *testing.T) {
	answer := "Done. Here is the plan:\n\n- read `main.go`\n- run **the tests**\n\n" +
		"```go\nfunc main() {}\n```\n\nSee [the docs](https://go.dev/doc/) and 01a31234-5678-7abc.\n\n" +
		"| a | b |\n|---|---|\n| 1 | 2 |\n\n" +
		"Not this: [click](javascript:alert(1)) <img src=x onerror=alert(1)> ![x](https://x/y.png)"
	prompt := "Look at /home/dev/site, the 2026-03-31 build (answer-marker-impala), v1.2.3."
	s, err := store.Parse(piSessionOf(t, prompt, "thinking: a *plan*", answer, "ls", "/home/dev/site"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Markdown(&out, s, Options{}); err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := md.Convert(out.Bytes(), &page); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<pre><code class=\"language-go\">func main() {}", "<ul>\n<li>read <code>main.go</code></li>",
		"<strong>the tests</strong>", `<a href="https://go.dev/doc/">the docs</a>`, "<table>", "<em>plan</em>",
		"/home/dev/site, the 2026-03-31 build (answer-marker-impala), v1.2.3.", "01a31234-5678-7abc",
		"[click](javascript:alert(1)) &lt;img src=x onerror=alert(1)&gt; ![x](https://x/y.png)"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("the rendered page lacks %q:\n%s\n---\n%s", want, page.String(), out.String())
		}
	}
	for _, bad := range []string{"<img", "javascript:alert(1)\"", "href=\"javascript"} {
		if strings.Contains(page.String(), bad) {
			t.Errorf("the rendered page holds %q:\n%s", bad, page.String())
		}
	}
	if m := regexp.MustCompile(`\\[-./]`).FindString(out.String()); m != "" {
		t.Errorf("%q in the markdown:\n%s", m, out.String())
	}
}

// The markdown of the real sessions (testdata/real) has no backslash
// before a dash, a dot or a slash outside the code the sessions hold.
func TestRealSessionsMarkdownHasNoNeedlessEscapes(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/real/*/*/*.jsonl")
	more, _ := filepath.Glob("../testdata/real/*/*.jsonl")
	paths = append(paths, more...)
	if len(paths) == 0 {
		t.Skip("no real sessions")
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		s, err := store.Open(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var out bytes.Buffer
		if err := Markdown(&out, s, Options{}); err != nil {
			t.Fatal(err)
		}
		// Outside fences: the lines between them.
		in := ""
		for k, l := range strings.Split(out.String(), "\n") {
			if f := strings.TrimLeft(l, "`~"); len(l)-len(f) >= 3 && (in == "" || strings.HasPrefix(l, in) && strings.Trim(l, "`~") == "") {
				if in == "" {
					in = l[:len(l)-len(f)]
				} else {
					in = ""
				}
				continue
			}
			if in == "" {
				if m := regexp.MustCompile(`\\[-./]`).FindString(l); m != "" {
					t.Errorf("%s: line %d: %q in %q", p, k+1, m, l)
				}
			}
		}
	}
}

// Plain prose skips goldmark on the page: what it writes is what goldmark
// writes for it (quotes aside, which both escape their own way), and what
// is not plain goes to goldmark.
func TestPlainProseRendersAsGoldmark(t *testing.T) {
	for _, p := range []string{"one line", "two\nlines", "a paragraph\n\nand another\nof two lines", "it's \"quoted\", 50% (ok); fine? yes.",
		"ends with a dot.", "café, 多语言", "a\n\n\n\nb"} {
		if !plainProse(p) {
			t.Errorf("%q is not plain", p)
			continue
		}
		var w htmlWriter
		w.plainParagraphs(p)
		var want bytes.Buffer
		if err := mdHTML.Convert([]byte(p), &want); err != nil {
			t.Fatal(err)
		}
		got := strings.NewReplacer("&#34;", "&quot;", "&#39;", "'").Replace(string(w.b))
		if got != want.String() {
			t.Errorf("%q: %q, goldmark %q", p, got, want.String())
		}
	}
	for _, p := range []string{"a *b*", "1. a", "- a", "  code", "see https://x.y", "www.x.y", "a@b.c", "x_y", "a  \nb", ": def", "a\n===", "<b>", "a & b", "`c`", "a | b", "~x~", "!x", "#h", "\\x"} {
		if plainProse(p) {
			t.Errorf("%q is plain", p)
		}
	}
}

// Prose around fenced code skips goldmark on the page too: what it
// writes is what goldmark writes; an unclosed or indented fence, or markup
// in the prose, goes to goldmark.
func TestProseAndFencesRendersAsGoldmark(t *testing.T) {
	for _, p := range []string{"Fixed it:\n\n```go\nfunc main() {}\n```", "a\n```\ncode\n```\nb\n\n~~~~py\nx = 1\n~~~~\n\nend.",
		"```\n```", "```Go extra\n# not a heading\n<b>\n```\nafter", "one\n````\n```\n````"} {
		var w htmlWriter
		if !w.proseAndFences(p) {
			t.Errorf("%q: not taken", p)
			continue
		}
		var gm htmlWriter
		md, doc, src := safeMarkdown(p)
		if md != p || doc == nil {
			t.Fatalf("%q: changed to %q", p, md)
		}
		doc.RemoveChild(doc, doc.LastChild())
		var buf bytes.Buffer
		if err := mdHTML.Renderer().Render(&buf, src, doc); err != nil {
			t.Fatal(err)
		}
		gm.raw("<div class=\"md\">")
		gm.b = append(gm.b, buf.Bytes()...)
		gm.raw("</div>")
		norm := strings.NewReplacer("&#34;", "&quot;", "&#39;", "'").Replace
		if norm(string(w.b)) != norm(string(gm.b)) {
			t.Errorf("%q:\n%s\ngoldmark:\n%s", p, w.b, gm.b)
		}
	}
	for _, p := range []string{"no fence", "```\nunclosed", "  ```\nindented\n  ```", "*a*\n```\nx\n```", "```\nx\n```\n- list"} {
		var w htmlWriter
		if w.proseAndFences(p) || len(w.b) > 0 {
			t.Errorf("%q: taken", p)
		}
	}
}
