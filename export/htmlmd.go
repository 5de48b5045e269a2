package export

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	gmrender "github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"skein/internal/sanitize"
)

// The assistant's markdown on the page: markdownOf's safe markdown,
// rendered by goldmark (which writes no raw HTML: there is none left to
// write), with fenced code highlighted as the rest of the page's code, and
// links that open outside the page, never telling the target where from.
var mdHTML = goldmark.New(
	goldmark.WithExtensions(extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignNone)),
		extension.Strikethrough, extension.Linkify, extension.TaskList, extension.Footnote, extension.DefinitionList),
	goldmark.WithRendererOptions(gmrender.WithNodeRenderers(util.Prioritized(pageNodes{}, 100))),
)

// pageNodes renders the nodes the page writes its own way.
type pageNodes struct{}

func (pageNodes) RegisterFuncs(reg gmrender.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		fc := n.(*ast.FencedCodeBlock)
		var code []byte
		for i := 0; i < fc.Lines().Len(); i++ {
			seg := fc.Lines().At(i)
			code = append(code, seg.Value(src)...)
		}
		hw := htmlWriter{}
		hw.fence(shorten(strings.ToLower(string(fc.Language(src))), 24), string(bytes.TrimSuffix(code, []byte("\n"))))
		w.Write(hw.b)
		return ast.WalkSkipChildren, nil
	})
	// A link to a page or a mail address; any other (a place in a page
	// that is not this one, a relative path) is its text alone.
	link := func(w util.BufWriter, dest []byte, entering bool) {
		d := bytes.ToLower(dest)
		if !bytes.HasPrefix(d, []byte("https://")) && !bytes.HasPrefix(d, []byte("http://")) && !bytes.HasPrefix(d, []byte("mailto:")) {
			return
		}
		if entering {
			w.WriteString("<a href=\"")
			w.Write(util.EscapeHTML(util.URLEscape(dest, true)))
			w.WriteString("\" rel=\"noopener noreferrer nofollow\">")
		} else {
			w.WriteString("</a>")
		}
	}
	reg.Register(ast.KindLink, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		link(w, n.(*ast.Link).Destination, entering)
		return ast.WalkContinue, nil
	})
	reg.Register(ast.KindAutoLink, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		al := n.(*ast.AutoLink)
		link(w, al.URL(src), true)
		w.Write(util.EscapeHTML(al.Label(src)))
		link(w, al.URL(src), false)
		return ast.WalkContinue, nil
	})
}

// markdown writes the assistant's text, its markdown rendered from the
// reading safeMarkdown made of it (one reading), or, for prose with no
// character markdown reads, as goldmark would render it (no reading).
func (w *htmlWriter) markdown(text string) {
	t := strings.Trim(sanitize.Text(text), "\n")
	if t == "" {
		return
	}
	if plainProse(t) {
		w.raw("<div class=\"md\">")
		w.plainParagraphs(t)
		w.raw("</div>")
		return
	}
	if w.proseAndFences(t) {
		return
	}
	md, doc, src := safeMarkdown(text)
	if md == "" {
		return
	}
	buf := mdBufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer mdBufs.Put(buf)
	var err error
	if doc != nil {
		doc.RemoveChild(doc, doc.LastChild()) // endMark's paragraph
		err = mdHTML.Renderer().Render(buf, src, doc)
	} else {
		err = mdHTML.Convert([]byte(md), buf)
	}
	if err != nil {
		w.prose(text) // goldmark fails only on a writer's error: never here
		return
	}
	w.raw("<div class=\"md\">")
	w.b = append(w.b, buf.Bytes()...)
	w.raw("</div>")
}

// plainProse: text in which markdown finds nothing to read but
// paragraphs: no character that makes markup, no line that starts a
// block, no address that GFM makes a link of, no hard line break.
func plainProse(t string) bool {
	if strings.ContainsAny(t, "\\`*_[]<>#|~=!&@") || strings.Contains(t, "://") || strings.Contains(t, "www.") {
		return false
	}
	for l := range strings.SplitSeq(t, "\n") {
		if l == "" {
			continue
		}
		switch c := l[0]; {
		case c == ' ', c == '\t', c == '-', c == '+', c == ':', c >= '0' && c <= '9':
			return false
		}
		if strings.HasSuffix(l, " ") || strings.HasSuffix(l, "\t") {
			return false
		}
	}
	return true
}

// fence writes a fenced block's code, highlighted, as the page's other
// code is.
func (w *htmlWriter) fence(lang, code string) {
	w.raw("<pre class=\"code\"><code>")
	w.highlight(lang, code)
	w.raw("</code></pre>\n")
}

// proseAndFences writes text that is plain prose (plainProse) around
// fenced code at the start of its lines, as goldmark renders it, without
// reading it as markdown: what an assistant most often writes, read at the
// speed of the page's other text. It writes nothing and reports false for
// any other text (an unclosed or indented fence, markup in the prose).
func (w *htmlWriter) proseAndFences(t string) bool {
	type piece struct{ prose, lang, code string }
	var pieces []piece
	sc := fenceScanner{text: t}
	start := 0
	for f, ok := sc.nextFence(0); ok; f, ok = sc.nextFence(f.after) {
		if t[f.open] == ' ' {
			return false // its indent is taken off its lines: goldmark's to read
		}
		prose := strings.Trim(t[start:f.open], "\n")
		if !f.closed || !plainProse(prose) {
			return false
		}
		pieces = append(pieces, piece{prose, f.lang, strings.TrimSuffix(t[f.body:f.bodyEnd], "\n")})
		start = f.after
	}
	rest := strings.Trim(t[start:], "\n")
	if len(pieces) == 0 || !plainProse(rest) {
		return false
	}
	w.raw("<div class=\"md\">")
	for _, p := range pieces {
		w.plainParagraphs(p.prose)
		w.fence(p.lang, p.code)
	}
	w.plainParagraphs(rest)
	w.raw("</div>")
	return true
}

// plainParagraphs writes plain prose as goldmark renders it: a paragraph
// per run of lines, its lines kept apart by newlines.
func (w *htmlWriter) plainParagraphs(t string) {
	open := false
	for l := range strings.SplitSeq(t, "\n") {
		switch {
		case l == "" && open:
			w.raw("</p>\n")
			open = false
		case l == "":
		case open:
			w.raw("\n")
			w.esc(l)
		default:
			w.raw("<p>")
			w.esc(l)
			open = true
		}
	}
	if open {
		w.raw("</p>\n")
	}
}
