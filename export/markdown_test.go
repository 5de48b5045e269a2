package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"skein/internal/sanitize"
	"skein/model"
	"skein/store"
)

// hostile are texts a session may hold that markdown would read as markup.
var hostile = []string{
	"# not a heading", "* not a list", "1. not a list either", "> not a quote", "    not code",
	"```\nnot a fence\n```", "~~~", "<script>alert(1)</script>", "</details>", "<img src=x onerror=alert(1)>",
	"[a link](javascript:alert(1))", "![img](http://x/y.png)", "<https://example.com>", "https://example.com www.example.com",
	"mail me: a@b.example", "**bold** _it_ ~~strike~~", "| a | b |\n|---|---|", "- [ ] task", "line\n===", "line\n---",
	"&amp; &lt;b&gt; &#x26;", "`code` ``", "\\*escaped\\*", "\x1b]0;pwned\x07 \x1b[31mred", "a\u2028b", "[^1]\n\n[^1]: note",
	"trailing two spaces  \nnext", "<!-- comment -->", "<?php ?>", "{{template}}", "\t\ttabbed",
}

// piSession is a pi session of one user message and one answer, with a
// tool call and its result, each holding text.
func piSession(t *testing.T, text string) []byte {
	return piSessionOf(t, text, text, text, text, text)
}

// piSessionOf is a pi session of a prompt, an answer with thinking and a
// bash call, and the call's result.
func piSessionOf(t *testing.T, prompt, thinking, answer, command, result string) []byte {
	t.Helper()
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	lines := []string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-05-01T10:00:00.000Z","cwd":"/w"}`,
		fmt.Sprintf(`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-05-01T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":%s}],"timestamp":1}}`, q(prompt)),
		fmt.Sprintf(`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-05-01T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":%s},{"type":"text","text":%s},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":%s}}],"timestamp":2}}`, q(thinking), q(answer), q(command)),
		fmt.Sprintf(`{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-05-01T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":%s}],"isError":false,"timestamp":3}}`, q(result)),
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

var md = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote, extension.DefinitionList))

// TestMarkdownHasNoMarkupFromTheSession: for each hostile text, the
// export's parse holds only the structure the exporter writes (its
// headings, its list of facts, paragraphs, fenced blocks, its own
// <details> lines, its bold labels), no control byte, and the text itself,
// where a person typed it or a program wrote it; where the assistant wrote
// it, its markdown and nothing that must not pass.
func TestMarkdownHasNoMarkupFromTheSession(t *testing.T) {
	for _, h := range hostile {
		checkMarkdown(t, h)
	}
}

// FuzzMarkdown: any text in a prompt, an answer, a call and a result.
func FuzzMarkdown(f *testing.F) {
	for _, h := range hostile {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, h string) { checkMarkdown(t, h) })
}

// checkMarkdown exports a session holding h in the prompt, the call and
// the result (text: no markup, every line there), and one holding h in the
// answer and its thinking (markdown: nothing that must not pass, nothing
// running on into the result after it, every word there).
func checkMarkdown(t *testing.T, h string) {
	t.Helper()
	s, err := store.Parse(piSessionOf(t, h, "thought", "answer", h, h))
	if err != nil {
		t.Fatal(err)
	}
	src, doc := checkMarkdownShape(t, h, s, Options{}, false)
	checkMarkdownText(t, h, s, src, doc)

	s, err = store.Parse(piSessionOf(t, "prompt", h, h, "ls", "the-result"))
	if err != nil {
		t.Fatal(err)
	}
	src, doc = checkMarkdownShape(t, h, s, Options{}, true)
	// The result is the page's last block, under its own heading: nothing
	// of the answer ran on.
	last := doc.LastChild()
	fc, ok := last.(*ast.FencedCodeBlock)
	if ok && fc.Lines().Len() == 1 {
		seg := fc.Lines().At(0)
		ok = string(seg.Value(src)) == "the-result\n"
	}
	head, isH := last.PreviousSibling().(*ast.Heading)
	if isH {
		seg := head.Lines().At(0)
		isH = strings.HasPrefix(string(seg.Value(src)), "tool result")
	}
	if !ok || !isH {
		t.Errorf("%.200q: the answer ran on past its end:\n%.3000s", h, src)
	}
	checkMarkdownWords(t, h, src, doc)
}

// checkMarkdownShape exports s as markdown and checks that it holds no
// control byte and that its parse holds only the exporter's structure; with
// assistant, also the markdown an assistant may write, but never raw HTML,
// an image, a footnote, or a link that is not to a page, a mail address
// or a place in the page.
func checkMarkdownShape(t *testing.T, h string, s *model.Session, o Options, assistant bool) ([]byte, ast.Node) {
	t.Helper()
	var out bytes.Buffer
	if err := Markdown(&out, s, o); err != nil {
		t.Fatal(err)
	}
	src := out.Bytes()
	for _, c := range src {
		if c < 0x20 && c != '\n' || c == 0x7f {
			t.Fatalf("%.200q: a control byte %#x in the markdown", h, c)
		}
	}
	doc := md.Parser().Parse(text.NewReader(src))
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Document, *ast.Paragraph, *ast.Text, *ast.String, *ast.FencedCodeBlock, *ast.TextBlock:
			return ast.WalkContinue, nil
		case *ast.HTMLBlock:
			var b strings.Builder
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				b.Write(seg.Value(src))
			}
			if got := strings.TrimSpace(b.String()); got != "<details><summary>thinking</summary>" && got != "</details>" {
				return ast.WalkStop, fmt.Errorf("HTML %q", got)
			}
			return ast.WalkContinue, nil
		case *ast.Link:
			if !assistant || !ordinaryTarget(n.Destination) {
				return ast.WalkStop, fmt.Errorf("a link to %q", n.Destination)
			}
			return ast.WalkContinue, nil
		case *ast.AutoLink:
			// GFM makes a link of an address written out (https://..., www....);
			// only ever of a page or a mail address.
			if !ordinaryTarget(n.URL(src)) || !assistant && n.AutoLinkType == ast.AutoLinkURL && bytes.HasPrefix(n.URL(src), []byte("<")) {
				return ast.WalkStop, fmt.Errorf("an autolink to %q", n.URL(src))
			}
			return ast.WalkContinue, nil
		case *ast.Image, *ast.RawHTML, *east.FootnoteLink, *east.Footnote, *east.FootnoteList, *east.FootnoteBacklink:
			return ast.WalkStop, fmt.Errorf("a %s", n.Kind())
		}
		if assistant {
			return ast.WalkContinue, nil // the assistant's markdown
		}
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level > 3 {
				return ast.WalkStop, fmt.Errorf("a heading of level %d", n.Level)
			}
		case *ast.List, *ast.ListItem:
			if n.Parent() != doc && n.Parent().Kind() != ast.KindList {
				return ast.WalkStop, fmt.Errorf("a list inside %s", n.Parent().Kind())
			}
		case *ast.Emphasis:
			if n.Level != 2 || n.Parent().Kind() != ast.KindParagraph || n.PreviousSibling() != nil {
				return ast.WalkStop, fmt.Errorf("emphasis from the session")
			}
		default:
			return ast.WalkStop, fmt.Errorf("a %s", n.Kind())
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Errorf("%.200q: %v\n%.2000s", h, err, src)
	}
	return src, doc
}

// checkMarkdownText checks that every line of the session's first
// message is in the markdown's text, as a prompt and as a result.
func checkMarkdownText(t *testing.T, h string, s *model.Session, src []byte, doc ast.Node) {
	t.Helper()
	got := plainOf(src, doc)
	// The text as the session holds it (bytes that are not UTF-8 read as pi
	// reads them).
	first := s.EntryMessage(0)
	stored := first.Text("\n")
	for _, text := range []string{sanitize.Text(stored), sanitize.Output(stored)} { // the prompt's, the result's
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.Contains(got, l) {
				t.Errorf("%q: the line %q is not in the text:\n%s", h, l, got)
			}
		}
	}
}

// checkMarkdownWords checks that every word of h is in the page's text
// or its links' targets (the answer and its thinking: twice).
func checkMarkdownWords(t *testing.T, h string, src []byte, doc ast.Node) {
	t.Helper()
	got := plainOf(src, doc)
	for _, w := range strings.FieldsFunc(sanitize.Text(h), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		if strings.Trim(w, "0123456789") == "" {
			continue // a number may be a list's: "02) a" is item 2
		}
		if strings.Count(got, w) < 2 {
			t.Errorf("%q: the word %q is not in the page's text twice:\n%s", h, w, got)
		}
	}
}

// plainOf is the text of a parse: its text (escapes undone), code and
// link targets.
func plainOf(src []byte, doc ast.Node) string {
	var plain strings.Builder
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch n := n.(type) {
			case *ast.Text:
				plain.WriteString(unescape(string(n.Segment.Value(src))))
				if n.HardLineBreak() || n.SoftLineBreak() {
					plain.WriteByte('\n')
				}
			case *ast.String:
				plain.Write(n.Value)
			case *ast.Link:
				plain.Write(n.Destination)
				plain.WriteByte(' ')
			case *ast.AutoLink:
				plain.Write(n.Label(src)) // the address as written
			case *east.TaskCheckBox:
				if n.IsChecked {
					plain.WriteString(" X x ") // a task's "[X]" or "[x]"
				}
			case *ast.CodeSpan:
				for c := n.FirstChild(); c != nil; c = c.NextSibling() {
					if t, ok := c.(*ast.Text); ok {
						plain.Write(t.Segment.Value(src))
					}
				}
				return ast.WalkSkipChildren, nil
			case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
				if f, ok := n.(*ast.FencedCodeBlock); ok && f.Info != nil {
					plain.Write(f.Info.Segment.Value(src)) // a fence's language
					plain.WriteByte('\n')
				}
				for i := 0; i < n.Lines().Len(); i++ {
					seg := n.Lines().At(i)
					plain.Write(seg.Value(src))
				}
			}
		}
		return ast.WalkContinue, nil
	})
	return plain.String()
}

// unescape is the parse's text with the backslash escapes goldmark keeps in
// its segments removed, and the character references decoded.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return strings.NewReplacer("&#32;", " ", "&#9;", "\t").Replace(b.String())
}

// The json export is Dhara's model: meta, entries and tree, every tool
// call with its id.
func TestJSONExport(t *testing.T) {
	s, err := store.Parse(piSession(t, "hello"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := JSON(&out, s, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Meta    map[string]any
		Entries []map[string]any
		Tree    struct {
			Root     string
			Branches []struct{ EntryIDs []string }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out.Bytes())
	}
	types := map[string]string{}
	for _, e := range doc.Entries {
		types[e["id"].(string)] = e["type"].(string)
	}
	if types["c1"] != "tool_call" || types["a3"] != "tool_result" || types["a1"] != "message" {
		t.Errorf("entries %v", types)
	}
	if doc.Meta["formatVersion"] != "0.1.0" || len(doc.Tree.Branches) != 1 || len(doc.Tree.Branches[0].EntryIDs) != 4 {
		t.Errorf("meta %v, tree %+v", doc.Meta, doc.Tree)
	}
}
