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
	t.Helper()
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	lines := []string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-05-01T10:00:00.000Z","cwd":"/w"}`,
		fmt.Sprintf(`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-05-01T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":%s}],"timestamp":1}}`, q(text)),
		fmt.Sprintf(`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-05-01T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":%s},{"type":"text","text":%s},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":%s}}],"timestamp":2}}`, q(text), q(text), q(text)),
		fmt.Sprintf(`{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-05-01T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":%s}],"isError":false,"timestamp":3}}`, q(text)),
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

var md = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote, extension.DefinitionList))

// TestMarkdownHasNoMarkupFromTheSession: for each hostile text, the
// export's parse holds only the structure the exporter writes (its
// headings, its list of facts, paragraphs, fenced blocks, its own
// <details> lines, its bold labels), no control byte, and the text itself.
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

// checkMarkdown exports a session holding h everywhere and checks that
// the parse of the markdown holds only the exporter's structure, no control
// byte, and every line of h as text.
func checkMarkdown(t *testing.T, h string) {
	t.Helper()
	s, err := store.Parse(piSession(t, h))
	if err != nil {
		t.Fatal(err)
	}
	src, doc := checkMarkdownShape(t, h, s, Options{})
	checkMarkdownText(t, h, s, src, doc)
}

// checkMarkdownShape exports s as markdown and checks that it holds no
// control byte and that its parse holds only the exporter's structure.
func checkMarkdownShape(t *testing.T, h string, s *model.Session, o Options) ([]byte, ast.Node) {
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
		case *ast.Heading:
			if n.Level > 3 {
				return ast.WalkStop, fmt.Errorf("a heading of level %d", n.Level)
			}
		case *ast.List, *ast.ListItem:
			if n.Parent() != doc && n.Parent().Kind() != ast.KindList {
				return ast.WalkStop, fmt.Errorf("a list inside %s", n.Parent().Kind())
			}
		case *ast.HTMLBlock:
			var b strings.Builder
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				b.Write(seg.Value(src))
			}
			if got := strings.TrimSpace(b.String()); got != "<details><summary>thinking</summary>" && got != "</details>" {
				return ast.WalkStop, fmt.Errorf("HTML %q", got)
			}
		case *ast.Emphasis:
			if n.Level != 2 || n.Parent().Kind() != ast.KindParagraph || n.PreviousSibling() != nil {
				return ast.WalkStop, fmt.Errorf("emphasis from the session")
			}
		case *ast.Link, *ast.AutoLink, *ast.Image, *ast.RawHTML, *ast.CodeSpan, *ast.Blockquote, *ast.ThematicBreak, *ast.CodeBlock,
			*east.Strikethrough, *east.Table, *east.TaskCheckBox, *east.FootnoteLink, *east.Footnote, *east.FootnoteList:
			return ast.WalkStop, fmt.Errorf("a %s", n.Kind())
		default:
			return ast.WalkStop, fmt.Errorf("an unexpected %s", n.Kind())
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Errorf("%.200q: %v\n%.2000s", h, err, src)
	}
	return src, doc
}

// checkMarkdownText checks that every line of the session's first
// message is in the markdown's text three times (the prompt, the answer,
// the result).
func checkMarkdownText(t *testing.T, h string, s *model.Session, src []byte, doc ast.Node) {
	t.Helper()
	// Every prompt, answer and result is there, as text: each of its
	// lines, as the parse reads it back.
	var plain strings.Builder
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch n := n.(type) {
			case *ast.Text:
				plain.Write(n.Segment.Value(src))
				if n.HardLineBreak() || n.SoftLineBreak() {
					plain.WriteByte('\n')
				}
			case *ast.String:
				plain.Write(n.Value)
			case *ast.FencedCodeBlock:
				for i := 0; i < n.Lines().Len(); i++ {
					seg := n.Lines().At(i)
					plain.Write(seg.Value(src))
				}
			}
		}
		return ast.WalkContinue, nil
	})
	got := unescape(plain.String())
	// The text as the session holds it (bytes that are not UTF-8 read as pi
	// reads them).
	first := s.EntryMessage(0)
	stored := first.Text("\n")
	for _, l := range strings.Split(sanitize.Text(stored), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if strings.Count(got, l) < 3 {
			t.Errorf("%q: the line %q is not in the text of the prompt, the answer and the result:\n%s", h, l, got)
		}
	}
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
