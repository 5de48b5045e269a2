package transcript

import (
	"bytes"
	"html"
	"net/url"
	"strings"

	"charm.land/glamour/v2/ansi"
	xansi "github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"skein/internal/sanitize"
)

// mdRenderer renders markdown as glamour's TermRenderer does (goldmark with
// GFM and definition lists, glamour's ANSI renderer), with a pass over the
// parsed document between the two, since session text chooses its links
// and glamour would make every one of them a terminal hyperlink (OSC 8)
// whatever its scheme and whatever its text says: [https://github.com/safe/repo](http://evil.example/x)
// reads as one address and opens another.
//
// The pass makes a link clickable only when its target is an http(s)
// address that is exactly its text; any other link is its text followed by
// its real target in parentheses, as plain text. It also keeps glamour from
// turning character references into controls: glamour decodes "&#x1b;"
// in text into ESC after skein's sanitizer has run. What glamour writes is
// then checked once more (keepOwnEscapes): colours and the hyperlinks the
// rule allows pass, everything else is sanitized text.
type mdRenderer struct {
	md goldmark.Markdown
	// codeW is how wide a code block's line may be before glamour wraps
	// it wherever the width ends, mid-token: the renderer wraps longer
	// lines at a space first (wrapCode).
	codeW int
}

func newMarkdownRenderer(styles ansi.StyleConfig, width int) *mdRenderer {
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.DefinitionList),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	)
	ar := ansi.NewRenderer(ansi.Options{WordWrap: width, Styles: styles})
	md.SetRenderer(renderer.NewRenderer(renderer.WithNodeRenderers(util.Prioritized(ar, 1000))))
	u := func(p *uint) int {
		if p == nil {
			return 0
		}
		return int(*p)
	}
	codeW := width - 2*u(styles.Document.Margin) - u(styles.Document.Indent) - u(styles.CodeBlock.Margin) - u(styles.CodeBlock.Indent)
	return &mdRenderer{md: md, codeW: codeW}
}

// Render renders sanitized markdown for a terminal.
func (r *mdRenderer) Render(md string) (string, error) {
	src := []byte(md)
	doc := r.md.Parser().Parse(text.NewReader(src))
	src = defuse(doc, src)
	src = r.wrapCode(doc, src)
	var b bytes.Buffer
	if err := r.md.Renderer().Render(&b, src, doc); err != nil {
		return "", err
	}
	return keepOwnEscapes(b.String()), nil
}

// defuse rewrites the parsed document as mdRenderer says and returns the
// source its nodes now point into: the text it adds (a link's target) is
// appended to the source, where a node's segment can name it.
func defuse(doc gast.Node, src []byte) []byte {
	var links, texts, raws []gast.Node
	gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering {
			return gast.WalkContinue, nil
		}
		switch n.Kind() {
		case gast.KindLink, gast.KindAutoLink:
			links = append(links, n)
		case gast.KindText:
			texts = append(texts, n)
		case gast.KindRawHTML, gast.KindHTMLBlock:
			raws = append(raws, n)
		case gast.KindImage:
			// glamour prints an image's text as it is, undecoded; its
			// hyperlinks are keepOwnEscapes' to judge.
			return gast.WalkSkipChildren, nil
		}
		return gast.WalkContinue, nil
	})
	for _, n := range links {
		src = rewriteLink(n, src)
	}
	for _, n := range texts {
		t := n.(*gast.Text)
		if raw := t.Segment.Value(src); bytes.IndexByte(raw, '&') >= 0 {
			// glamour unescapes each text (and the joined texts of a code
			// span or a strikethrough): the decoded text, sanitized, with
			// every & written &amp; so that no join forms a reference.
			t.Segment = appendSource(&src, escapeAmp(sanitize.Text(html.UnescapeString(string(raw)))))
		}
	}
	for _, n := range raws {
		src = defuseHTML(n, src)
	}
	return src
}

// wrapCode wraps a code block's lines longer than codeW at their last
// space that fits (a line with none is left to glamour), the rest going on
// under the line's own indentation and two spaces more: a token is never
// cut in two. The new lines are appended to the source.
func (r *mdRenderer) wrapCode(doc gast.Node, src []byte) []byte {
	if r.codeW < 20 {
		return src
	}
	var blocks []gast.Node
	gast.Walk(doc, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if entering && (n.Kind() == gast.KindFencedCodeBlock || n.Kind() == gast.KindCodeBlock) {
			blocks = append(blocks, n)
		}
		return gast.WalkContinue, nil
	})
	for _, n := range blocks {
		lines := n.Lines()
		long := false
		for i := range lines.Len() {
			seg := lines.At(i)
			if xansi.StringWidth(string(seg.Value(src))) > r.codeW+1 { // +1: its newline
				long = true
			}
		}
		if !long {
			continue
		}
		out := text.NewSegments()
		for i := range lines.Len() {
			seg := lines.At(i)
			line := strings.TrimRight(string(seg.Value(src)), "\n")
			if xansi.StringWidth(line) <= r.codeW {
				out.Append(seg)
				continue
			}
			for _, part := range wrapAtSpaces(line, r.codeW) {
				out.Append(appendSource(&src, part+"\n"))
			}
		}
		n.SetLines(out)
	}
	return src
}

// wrapAtSpaces cuts a line of code into parts at most w wide, each at the
// last space that fits; the parts after the first are indented as the
// line is, and two more.
func wrapAtSpaces(line string, w int) []string {
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	cont := indent + "  "
	var out []string
	for first := true; ; first = false {
		if !first {
			line = cont + strings.TrimLeft(line, " ")
		}
		if xansi.StringWidth(line) <= w {
			return append(out, line)
		}
		cut := -1
		lead := len(indent)
		if !first {
			lead = len(cont)
		}
		for i := len(line) - 1; i > lead; i-- {
			if line[i] == ' ' && xansi.StringWidth(line[:i]) <= w {
				cut = i
				break
			}
		}
		if cut < 0 {
			return append(out, line) // no space to wrap at: glamour's to wrap
		}
		out = append(out, strings.TrimRight(line[:cut], " "))
		line = line[cut+1:]
	}
}

// rewriteLink keeps a link whose target is an http(s) address equal to its
// text (as an autolink, which glamour shows once, not as text and target
// side by side) and turns any other into its text and " (target)".
func rewriteLink(n gast.Node, src []byte) []byte {
	parent := n.Parent()
	if parent == nil {
		return src
	}
	if al, ok := n.(*gast.AutoLink); ok {
		u := string(al.URL(src))
		if al.AutoLinkType == gast.AutoLinkURL && clickable(u) {
			return src
		}
		// An e-mail address or an address of another scheme: its text.
		t := gast.NewTextSegment(appendSource(&src, escapeAmp(sanitize.Inline(string(al.Label(src))))))
		parent.ReplaceChild(parent, n, t)
		return src
	}
	link := n.(*gast.Link)
	dest := string(link.Destination)
	shown, plain := plainText(link, src)
	if plain && shown == dest && clickable(dest) {
		al := gast.NewAutoLink(gast.AutoLinkURL, gast.NewTextSegment(appendSource(&src, dest)))
		parent.ReplaceChild(parent, n, al)
		return src
	}
	for c := link.FirstChild(); c != nil; {
		next := c.NextSibling()
		parent.InsertBefore(parent, n, c)
		c = next
	}
	if dest != "" && !(plain && shown == dest) {
		t := gast.NewTextSegment(appendSource(&src, " ("+escapeAmp(sanitize.Inline(dest))+")"))
		parent.InsertBefore(parent, n, t)
	}
	parent.RemoveChild(parent, n)
	return src
}

// plainText is a link's text as glamour shows it, and whether it is only
// text (no emphasis, code or image in it).
func plainText(n gast.Node, src []byte) (string, bool) {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*gast.Text)
		if !ok {
			return "", false
		}
		b.WriteString(html.UnescapeString(string(t.Segment.Value(src))))
	}
	return b.String(), true
}

// defuseHTML rewrites raw HTML that glamour would decode into controls
// (it strips the tags and unescapes what is left) with each & as &amp;:
// the references are then shown as written.
func defuseHTML(n gast.Node, src []byte) []byte {
	var segs *text.Segments
	switch h := n.(type) {
	case *gast.RawHTML:
		segs = h.Segments
	case *gast.HTMLBlock:
		segs = h.Lines()
		if h.HasClosure() {
			h.ClosureLine = defuseSegment(h.ClosureLine, &src)
		}
	}
	if segs == nil {
		return src
	}
	out := text.NewSegments()
	for i := 0; i < segs.Len(); i++ {
		out.Append(defuseSegment(segs.At(i), &src))
	}
	switch h := n.(type) {
	case *gast.RawHTML:
		h.Segments = out
	case *gast.HTMLBlock:
		h.SetLines(out)
	}
	return src
}

func defuseSegment(s text.Segment, src *[]byte) text.Segment {
	raw := string(s.Value(*src))
	if d := html.UnescapeString(raw); d == raw || sanitize.Text(d) == d {
		return s
	}
	return appendSource(src, escapeAmp(raw))
}

// appendSource appends s to the source and returns its segment.
func appendSource(src *[]byte, s string) text.Segment {
	start := len(*src)
	*src = append(*src, s...)
	return text.NewSegment(start, len(*src))
}

func escapeAmp(s string) string { return strings.ReplaceAll(s, "&", "&amp;") }

// clickable reports whether a link to u may be a terminal hyperlink: an
// http or https address with a host, no user name before it (which makes
// "https://github.com@evil.example" read as GitHub), and only printable
// ASCII, so that what the terminal opens is what is shown.
func clickable(u string) bool {
	for i := 0; i < len(u); i++ {
		if u[i] <= ' ' || u[i] >= 0x7F {
			return false
		}
	}
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != "" && p.User == nil
}
