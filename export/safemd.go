package export

import (
	"bytes"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"skein/internal/sanitize"
)

// The assistant writes markdown, and an export keeps it markdown: its
// headings, lists, emphasis, code, tables and ordinary links render as it
// wrote them. What must not pass is made text, the smallest piece that
// holds it: raw HTML, a link or an image whose target is not an ordinary
// one, a footnote or a link definition (either would reach into the other
// messages of the page), and anything left open that would run on into
// the next message (an unclosed fence is closed). The text is read with
// the parser of the strictest reader the exports meet (GFM, footnotes and
// definition lists), and read again after each change; text that does not
// come out clean in a few rounds is escaped whole, as prose.

// mdParser is GFM's extensions (its table without alignment styles, which
// the page's CSP would refuse), footnotes and definition lists.
var mdParser = mdHTML.Parser()

// endMark is a paragraph written after a message's markdown to see that
// nothing of the message runs on past its end.
const endMark = "skein-end-of-message-5d1f"

// markdownOf is the assistant's text as safe markdown.
func markdownOf(s string) string {
	md, _, _ := safeMarkdown(s)
	return md
}

// safeMarkdown is the assistant's text as safe markdown, and, when the
// last reading of it is the one returned, that reading (its source ends
// with endMark's paragraph, the document's last child).
func safeMarkdown(s string) (string, ast.Node, []byte) {
	s = strings.Trim(sanitize.Text(s), "\n")
	if s == "" {
		return "", nil, nil
	}
	escaped := map[int]bool{} // lines escaped once already
	for round := 0; round < 4; round++ {
		bad, ok, doc, src := unsafeLines(s)
		if ok {
			return s, doc, src
		}
		if len(bad) > 0 {
			s = escapeLines(s, bad, escaped)
			continue
		}
		// Nothing to escape, yet something runs on past the end: a fence
		// left open. Close it with a fence longer than any in the text.
		for _, c := range []byte{'`', '~'} {
			closed := s + "\n" + strings.Repeat(string(c), max(3, longestRun(s, c)+1))
			if _, ok, doc, src := unsafeLines(closed); ok {
				return closed, doc, src
			}
		}
		break
	}
	return strings.TrimSuffix(paragraphs(s), "\n\n"), nil, nil
}

// unsafeLines reads s and returns the lines that hold what must not pass,
// and whether s is safe: nothing to escape and nothing running past its
// end.
func unsafeLines(s string) (map[int]bool, bool, ast.Node, []byte) {
	src := []byte(s + "\n\n" + endMark + "\n")
	pc := parser.NewContext()
	doc := mdParser.Parse(text.NewReader(src), parser.WithContext(pc))
	starts := lineStarts(src)
	bad := map[int]bool{}
	code := map[int]bool{} // the lines of code blocks
	mark := func(off int) { bad[lineOf(starts, off)] = true }
	markBlock := func(n ast.Node) {
		for ; n != nil; n = n.Parent() {
			if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
				for i := 0; i < n.Lines().Len(); i++ {
					mark(n.Lines().At(i).Start)
				}
				return
			}
		}
	}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			for i := 0; i < n.Lines().Len(); i++ {
				code[lineOf(starts, n.Lines().At(i).Start)] = true
			}
		case *ast.HTMLBlock:
			markBlock(n)
			if n.HasClosure() {
				mark(n.ClosureLine.Start)
			}
		case *ast.RawHTML:
			for i := 0; i < n.Segments.Len(); i++ {
				mark(n.Segments.At(i).Start)
			}
		case *ast.Link:
			if !ordinaryTarget(n.Destination) {
				markInline(n, mark, markBlock)
			}
		case *ast.AutoLink:
			if !ordinaryTarget(n.URL(src)) {
				markInline(n, mark, markBlock)
			}
		case *ast.Image, *east.FootnoteLink, *east.FootnoteBacklink:
			markInline(n, mark, markBlock)
		case *east.Footnote, *east.FootnoteList:
			markBlock(n.FirstChild())
		}
		return ast.WalkContinue, nil
	})
	// A link definition leaves no node, nor does a footnote's that nothing
	// refers to (its text is gone from the page): find their lines by their
	// shape, outside code.
	refs := len(pc.References()) > 0
	for k, l := range strings.Split(s, "\n") {
		t := strings.TrimLeft(l, " ")
		if len(l)-len(t) <= 3 && strings.HasPrefix(t, "[") && strings.Contains(t, "]:") && !code[k] &&
			(refs || strings.HasPrefix(t, "[^")) {
			bad[k] = true
		}
	}
	// Nothing may run on: the mark must be a paragraph of its own, the
	// last of the page.
	ends := false
	if last := doc.LastChild(); last != nil && last.Kind() == ast.KindParagraph && last.Lines().Len() == 1 {
		seg := last.Lines().At(0)
		ends = string(seg.Value(src)) == endMark
	}
	delete(bad, len(starts)-2) // the mark's own line
	return bad, len(bad) == 0 && ends, doc, src
}

// markInline marks the lines of an inline node's text, or of its block
// when it holds none.
func markInline(n ast.Node, mark func(int), markBlock func(ast.Node)) {
	found := false
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			mark(t.Segment.Start)
			found = true
		}
		return ast.WalkContinue, nil
	})
	if !found {
		markBlock(n)
	}
}

// ordinaryTarget: a link to a page, a mail address, or a place in the
// page; not javascript:, data:, vbscript:, file: or any other scheme.
func ordinaryTarget(dest []byte) bool {
	d := strings.ToLower(strings.TrimSpace(string(dest)))
	i := strings.IndexAny(d, ":/?#")
	if i < 0 || d[i] != ':' {
		return true // no scheme: a relative link
	}
	switch d[:i] {
	case "http", "https", "mailto":
		return true
	}
	return false
}

func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func lineOf(starts []int, off int) int {
	lo, hi := 0, len(starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// escapeLines escapes the lines of s that bad names: what would make
// inline markup the first time, every punctuation mark when that was not
// enough (escaped notes those escaped once).
func escapeLines(s string, bad, escaped map[int]bool) string {
	lines := strings.Split(s, "\n")
	for k := range lines {
		switch {
		case !bad[k]:
		case escaped[k]:
			lines[k] = escapeLine(lines[k])
		default:
			lines[k] = escapeInline(lines[k])
			escaped[k] = true
		}
	}
	return strings.Join(lines, "\n")
}

// plainText is text a person typed, or a program wrote, as markdown that
// reads as that text: in a fence when one of its lines would begin a
// block (a heading, a list, a quote, a table, code), else as paragraphs
// with only the characters escaped that would make inline markup.
func plainText(s string) string {
	s = strings.Trim(sanitize.Text(s), "\n")
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	for _, l := range lines {
		if startsBlock(l) {
			fence := strings.Repeat("`", max(3, longestRun(s, '`')+1))
			return fence + "\n" + s + "\n" + fence + "\n\n"
		}
	}
	tildes := strings.Count(s, "~") > 1
	var b strings.Builder
	for k, l := range lines {
		if strings.TrimSpace(l) == "" {
			if k > 0 && strings.TrimSpace(lines[k-1]) != "" {
				b.WriteString("\n")
			}
			continue
		}
		b.WriteString(escapeInlineIn(l, tildes))
		if k+1 < len(lines) && strings.TrimSpace(lines[k+1]) != "" {
			b.WriteString("  ") // a hard line break: the line ends where it was typed
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	return b.String()
}

// startsBlock: a line that markdown would read as the start of a block
// (or as a heading's underline), not as a paragraph's text.
func startsBlock(l string) bool {
	if l == "" {
		return false
	}
	switch l[0] {
	case ' ', '\t', '#', '>', '<', ':', '|', '=':
		return true
	case '-', '+', '*':
		if len(l) == 1 || l[1] == ' ' || l[1] == '\t' {
			return true
		}
	case '`', '~':
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			return true
		}
	}
	if strings.Trim(l, "-*_ \t") == "" { // a break, or an underline
		return true
	}
	if strings.Trim(l, "-:| \t") == "" && strings.Contains(l, "-") { // a table's delimiter row
		return true
	}
	i := 0
	for i < len(l) && i < 10 && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	return i > 0 && i < 10 && i < len(l) && (l[i] == '.' || l[i] == ')') && (i+1 == len(l) || l[i+1] == ' ' || l[i+1] == '\t')
}

// escapeInline backslash-escapes what would make inline markup in a line
// of a paragraph, and nothing else: code, emphasis, links and images (at
// the bracket that would close their text),
// raw HTML, character references, strikethrough, a backslash that would
// escape, and a line break made by a backslash at the end.
func escapeInline(l string) string { return escapeInlineIn(l, strings.Count(l, "~") > 1) }

// escapeInlineIn is escapeInline for a line of a paragraph; tildes says
// whether the paragraph holds two tildes (strikethrough may span lines).
func escapeInlineIn(l string, tildes bool) string {
	var b strings.Builder
	for i := 0; i < len(l); i++ {
		c := l[i]
		esc := false
		switch c {
		case '`', '*':
			esc = true
		case ']':
			// A link, an image, a reference or a definition closes its
			// text with "](", "][" or "]:"; with no definition on the
			// page (markdownOf makes the assistant's text), a bracket
			// elsewhere is only a bracket.
			esc = i+1 < len(l) && (l[i+1] == '(' || l[i+1] == '[' || l[i+1] == ':')
		case '_':
			esc = i == 0 || i+1 == len(l) || !isWordByte(l[i-1]) || !isWordByte(l[i+1])
		case '<':
			esc = i+1 < len(l) && (isWordByte(l[i+1]) || strings.IndexByte("/!?", l[i+1]) >= 0)
		case '&':
			esc = i+1 < len(l) && (l[i+1] == '#' || isWordByte(l[i+1]))
		case '~':
			esc = tildes
		case '\\':
			esc = i+1 == len(l) || isPunct(l[i+1])
		}
		if esc {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// isWordByte: an ASCII letter or digit (what markdown reads as neither
// space nor punctuation beyond ASCII is a matter of Unicode classes; an
// escape there costs only a backslash).
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// inlineText is one line of session text for a heading or a list item.
func inlineText(s string) string {
	l := escapeInline(sanitize.Line(s))
	if strings.HasSuffix(l, "#") {
		l = l[:len(l)-1] + "\\#" // a heading's closing sequence would drop it
	}
	return l
}

// mdBufs are buffers for rendering markdown to HTML.
var mdBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}
