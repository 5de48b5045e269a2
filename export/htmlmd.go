package export

import (
	"bytes"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	gmrender "github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// The assistant's markdown on the page: markdownOf's safe markdown,
// rendered by goldmark (which writes no raw HTML: there is none left to
// write), with fenced code highlighted as the rest of the page's code, and
// links that open outside the page, never telling the target where from.
var mdHTML = goldmark.New(
	goldmark.WithExtensions(extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignNone)),
		extension.Strikethrough, extension.Linkify, extension.TaskList, extension.DefinitionList),
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
		hw.raw("<pre class=\"code\"><code>")
		hw.highlight(string(fc.Language(src)), string(bytes.TrimSuffix(code, []byte("\n"))))
		hw.raw("</code></pre>\n")
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

// markdown writes the assistant's text, its markdown rendered.
func (w *htmlWriter) markdown(text string) {
	src := markdownOf(text)
	if src == "" {
		return
	}
	buf := mdBufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer mdBufs.Put(buf)
	if err := mdHTML.Convert([]byte(src), buf); err != nil {
		w.prose(text) // goldmark fails only on a writer's error: never here
		return
	}
	w.raw("<div class=\"md\">")
	w.b = append(w.b, buf.Bytes()...)
	w.raw("</div>")
}
