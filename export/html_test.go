package export

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"skein/internal/sanitize"
	"skein/internal/synth"
	"skein/model"
	"skein/store"
)

// A PNG of one pixel, as pi's fixtures hold it.
const pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

// piHostile is a pi session with text h in every place a session holds
// text: the header's id and folder, the session's name, a prompt (and an
// image whose type and data are h), thinking, an answer, a model, a tool
// call's id, name, argument name and value, its result (an error, with an
// image), a command and its output, an extension's message and type, a
// compaction's summary, an error, an entry id a branch forks from, a
// branch summary and a label.
func piHostile(h string) []byte {
	q := func(s string) string { return jsonQuote(s) }
	u := q("u-" + h)
	ts := func(n int) string { return fmt.Sprintf(`"timestamp":"2026-05-01T10:00:%02d.000Z"`, n) }
	lines := []string{
		fmt.Sprintf(`{"type":"session","version":3,"id":%s,"timestamp":"2026-05-01T10:00:00.000Z","cwd":%s}`, q(h), q(h)),
		fmt.Sprintf(`{"type":"session_info","id":"n1","parentId":null,%s,"name":%s}`, ts(1), q(h)),
		fmt.Sprintf(`{"type":"message","id":%s,"parentId":"n1",%s,"message":{"role":"user","content":[{"type":"text","text":%s},{"type":"image","mimeType":%s,"data":%s},{"type":"image","mimeType":"image/png","data":%s}],"timestamp":1777629602000}}`, u, ts(2), q(h), q(h), q(h), q(h)),
		// A branch from the prompt, left behind (the leaf is the last entry).
		fmt.Sprintf(`{"type":"message","id":"f1","parentId":%s,%s,"message":{"role":"user","content":%s,"timestamp":1777629603000}}`, u, ts(3), q(h)),
		fmt.Sprintf(`{"type":"branch_summary","id":"f2","parentId":"f1",%s,"fromId":"f1","summary":%s}`, ts(4), q(h)),
		fmt.Sprintf(`{"type":"message","id":"f3","parentId":"f2",%s,"message":{"role":"assistant","content":[{"type":"text","text":%s}],"provider":%s,"model":%s,"stopReason":"stop","timestamp":1777629605000}}`, ts(5), q(h), q(h), q(h)),
		fmt.Sprintf(`{"type":"message","id":"a1","parentId":%s,%s,"message":{"role":"assistant","content":[{"type":"thinking","thinking":%s},{"type":"text","text":%s},{"type":"toolCall","id":%s,"name":%s,"arguments":{%s:%s,"command":%s}}],"provider":%s,"model":%s,"stopReason":"toolUse","timestamp":1777629606000}}`, u, ts(6), q(h), q(h), q(h), q(h), q(h), q(h), q(h), q(h), q(h)),
		fmt.Sprintf(`{"type":"message","id":"r1","parentId":"a1",%s,"message":{"role":"toolResult","toolCallId":%s,"toolName":%s,"content":[{"type":"text","text":%s},{"type":"image","mimeType":"image/png","data":%s}],"isError":true,"timestamp":1777629607000}}`, ts(7), q(h), q(h), q(h), q(pixel)),
		fmt.Sprintf(`{"type":"message","id":"b1","parentId":"r1",%s,"message":{"role":"bashExecution","command":%s,"output":%s,"exitCode":1,"cancelled":false,"truncated":false,"timestamp":1777629608000}}`, ts(8), q(h), q(h)),
		fmt.Sprintf(`{"type":"custom_message","customType":%s,"content":%s,"display":true,"id":"c1","parentId":"b1",%s}`, q(h), q(h), ts(9)),
		fmt.Sprintf(`{"type":"label","id":"l1","parentId":"c1",%s,"targetId":"a1","label":%s}`, ts(10), q(h)),
		fmt.Sprintf(`{"type":"compaction","id":"k1","parentId":"l1",%s,"summary":%s,"firstKeptEntryId":"b1","tokensBefore":1234}`, ts(11), q(h)),
		fmt.Sprintf(`{"type":"message","id":"a2","parentId":"k1",%s,"message":{"role":"assistant","content":[{"type":"text","text":%s}],"provider":"p","model":"m","stopReason":"error","errorMessage":%s,"timestamp":1777629612000}}`, ts(12), q(h), q(h)),
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// jsonQuote is s as a JSON string, invalid UTF-8 kept as the bytes it is
// (pi reads such bytes as U+FFFD; the session must still parse).
func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// richSession is a benign session that uses each part of the page: code
// in fences of several languages, images, every role, branches.
func richSession() []byte {
	text := "Here is the fix:\n\n```go\n// Add adds.\nfunc Add(a, b int) int { return a + b /* sum */ }\nvar s = \"x\" + `y`\n```\n\n~~~python\n# a comment\nprint('hi', 42)\n~~~\n\n```sql\n-- all\nSELECT * FROM t;\n```\n\n```\nunclosed"
	return piHostile(text)
}

// tagAttrs are the elements the page's template writes and the attributes
// of each, and the class names it uses.
type tagAttrs struct {
	attrs   map[string]map[string]bool
	classes map[string]bool
}

func (ta *tagAttrs) add(doc *html.Node) {
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		if ta.attrs[n.Data] == nil {
			ta.attrs[n.Data] = map[string]bool{}
		}
		for _, a := range n.Attr {
			ta.attrs[n.Data][a.Key] = true
			if a.Key == "class" {
				for _, c := range strings.Fields(a.Val) {
					ta.classes[c] = true
				}
			}
		}
	})
}

// templateShape is what the exporter writes for benign sessions: every pi
// fixture, the rich session, an empty one.
var templateShape = sync.OnceValues(func() (*tagAttrs, error) {
	ta := &tagAttrs{attrs: map[string]map[string]bool{}, classes: map[string]bool{}}
	files, err := filepath.Glob("../testdata/pi/store/*/*.jsonl")
	if err != nil || len(files) < 10 {
		return nil, fmt.Errorf("fixtures: %v, %d files", err, len(files))
	}
	inputs := [][]byte{richSession(), []byte(`{"type":"session","version":3,"id":"e","timestamp":"2026-05-01T10:00:00.000Z","cwd":"/w"}` + "\n")}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, data)
	}
	for _, in := range inputs {
		s, err := store.Parse(in)
		if err != nil {
			return nil, err
		}
		var out bytes.Buffer
		if err := HTML(&out, s, Options{}); err != nil {
			return nil, err
		}
		doc, err := html.Parse(&out)
		if err != nil {
			return nil, err
		}
		ta.add(doc)
	}
	// The assistant's markdown, as goldmark renders it (htmlmd.go).
	for el, attrs := range map[string][]string{"div": {"class"}, "p": nil, "ul": nil, "ol": {"start"}, "li": nil,
		"strong": nil, "em": nil, "del": nil, "code": nil, "pre": {"class"}, "a": {"href", "rel"}, "h1": nil, "h2": nil,
		"h3": nil, "h4": nil, "h5": nil, "h6": nil, "table": nil, "thead": nil, "tbody": nil, "tr": nil, "th": nil,
		"td": nil, "blockquote": nil, "hr": nil, "br": nil, "input": {"checked", "disabled", "type"}, "dl": nil,
		"dt": nil, "dd": nil} {
		if ta.attrs[el] == nil {
			ta.attrs[el] = map[string]bool{}
		}
		for _, a := range attrs {
			ta.attrs[el][a] = true
		}
	}
	ta.classes["md"] = true
	return ta, nil
})

func walk(n *html.Node, fn func(*html.Node)) {
	fn(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

// textOf is the text of n and its descendants, scripts and styles left out.
func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(n *html.Node) {
		if n.Type == html.TextNode && (n.Parent == nil || n.Parent.Data != "script" && n.Parent.Data != "style") {
			b.WriteString(n.Data)
		}
	})
	return b.String()
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func hasClass(n *html.Node, c string) bool {
	v, _ := attr(n, "class")
	for _, f := range strings.Fields(v) {
		if f == c {
			return true
		}
	}
	return false
}

var (
	idRe    = regexp.MustCompile(`^(m[0-9]+|s[0-9]+|branch)$`)
	segsRe  = regexp.MustCompile(`^[0-9]+(:[0-9]+)?( [0-9]+(:[0-9]+)?)*$`)
	imageRe = regexp.MustCompile(`^data:image/(png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/]*={0,2}$`)
	hashRe  = regexp.MustCompile(`'sha256-[A-Za-z0-9+/=]+'`)
)

// checkPage checks a page against the template's shape: only its elements,
// attributes and classes, ids and branch data of its own making, no
// handler, no link, images only as data: URIs of images, no comment, and
// exactly one script and one style, each allowed by the CSP by its hash
// and by nothing else.
func checkPage(t *testing.T, name string, page []byte) *html.Node {
	t.Helper()
	shape, err := templateShape()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var scripts, styles []string
	csp := ""
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s: %s\n%s", name, fmt.Sprintf(format, args...), page)
	}
	walk(doc, func(n *html.Node) {
		switch n.Type {
		case html.CommentNode:
			fail("a comment %q", n.Data)
		case html.ElementNode:
			allowed, ok := shape.attrs[n.Data]
			if !ok || n.Namespace != "" {
				fail("an element <%s> the template does not write", n.Data)
				return
			}
			for _, a := range n.Attr {
				k := strings.ToLower(a.Key)
				switch {
				case strings.HasPrefix(k, "on"):
					fail("a handler %s=%q", a.Key, a.Val)
				case !allowed[a.Key] || a.Namespace != "":
					fail("an attribute %s on <%s> the template does not write", a.Key, n.Data)
				case k == "href" || k == "action" || k == "formaction":
					if !strings.HasPrefix(a.Val, "https://") && !strings.HasPrefix(a.Val, "http://") && !strings.HasPrefix(a.Val, "mailto:") {
						fail("a link to %q", a.Val)
					}
				case k == "src":
					if !imageRe.MatchString(a.Val) {
						fail("a source %.40q", a.Val)
					}
				case k == "class":
					for _, c := range strings.Fields(a.Val) {
						if !shape.classes[c] {
							fail("a class %q the template does not use", c)
						}
					}
				case k == "id" && !idRe.MatchString(a.Val), k == "data-segs" && !segsRe.MatchString(a.Val):
					fail("%s=%q", a.Key, a.Val)
				}
			}
			switch n.Data {
			case "script":
				if _, ok := attr(n, "src"); ok {
					fail("a script with a source")
				}
				scripts = append(scripts, textOfAll(n))
			case "style":
				styles = append(styles, textOfAll(n))
			case "meta":
				if v, _ := attr(n, "http-equiv"); strings.EqualFold(v, "content-security-policy") {
					if csp != "" || len(scripts)+len(styles) > 0 {
						fail("a second CSP, or one after a script or style")
					}
					csp, _ = attr(n, "content")
				}
			}
		}
	})
	if len(scripts) != 1 || len(styles) != 1 {
		t.Fatalf("%s: %d scripts and %d styles", name, len(scripts), len(styles))
	}
	hash := func(s string) string {
		h := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
	}
	want := "default-src 'none'; script-src " + hash(scripts[0]) + "; style-src " + hash(styles[0]) + "; img-src data:; base-uri 'none'; form-action 'none'"
	if csp != want || strings.Contains(csp, "unsafe") || len(hashRe.FindAllString(csp, -1)) != 2 {
		t.Errorf("%s: the CSP is %q, want %q", name, csp, want)
	}
	return doc
}

// textOfAll is every text node under n.
func textOfAll(n *html.Node) string {
	var b strings.Builder
	walk(n, func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
	})
	return b.String()
}

// checkHTML exports the session of piHostile(h) and checks its page: the
// template's shape only, and every line of the prompt, the answer and the
// result there as text.
func checkHTML(t *testing.T, h string) {
	t.Helper()
	s, err := store.Parse(piHostile(h))
	if err != nil {
		t.Skipf("%q: not a session: %v", h, err)
	}
	var out bytes.Buffer
	if err := HTML(&out, s, Options{}); err != nil {
		t.Fatal(err)
	}
	doc := checkPage(t, fmt.Sprintf("%q", h), out.Bytes())
	got := textOf(doc)
	var results strings.Builder
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && hasClass(n, "out") {
			results.WriteString(textOf(n))
			results.WriteByte('\n')
		}
	})
	// The text as the session holds it (bytes that are not UTF-8 read as pi
	// reads them).
	prompt := ""
	for i := range s.Len() {
		if s.Entry(i).IsMessage(model.RoleUser) {
			m := s.EntryMessage(i)
			prompt = m.Text("\n")
			break
		}
	}
	for _, l := range strings.Split(sanitize.Text(prompt), "\n") {
		if l = strings.TrimSpace(l); l != "" && strings.Count(got, l) < 4 {
			t.Errorf("%q: the line %q is not in the text of the prompt, the thinking, the answer and the call:\n%s", h, l, got)
		}
	}
	for _, l := range strings.Split(sanitize.Output(prompt), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.Contains(results.String(), l) {
			t.Errorf("%q: the line %q is not in the result:\n%s", h, l, results.String())
		}
	}
}

// hostileHTML are texts that would be live markup in a page unescaped.
var hostileHTML = []string{
	"</script><script>document.body.dataset.pwned=1</script>", `<img src=x onerror="document.title='pwned'">`,
	"<!--", "-->", "<![CDATA[x]]>", "</style><style>*{display:none}</style>", "</title><script>alert(1)</script>",
	`" onmouseover="alert(1)`, "' autofocus onfocus='alert(1)", "<a href=\"javascript:alert(1)\">x</a>", "javascript:alert(1)",
	"data:text/html,<script>alert(1)</script>", "<svg><script>alert(1)</script></svg>", "<math><mi>x</mi></math>",
	"<iframe src=//evil.example></iframe>", "<base href=//evil.example/>", "<meta http-equiv=refresh content=0;url=//evil.example>",
	"<form action=//evil.example><button>go</button></form>", "<details open ontoggle=alert(1)>", "</details></article></main>",
	"<textarea></textarea>", "<plaintext>", "&lt;script&gt; &amp;lt; &#60;", "\u2028\u2029", "\x00nul\x7f", "\r\nCRLF\rCR",
	"```js\nalert(`</script>`) // <!--\n```", "~~~\n</code></pre><script>x</script>\n~~~", "\ufeffBOM \u202eevil\u202c",
	strings.Repeat("x", 70000), "\xff\xfe not UTF-8 \xc3",
}

// TestHTMLHasNoMarkupFromTheSession: the hostile corpus (the markdown
// exporter's and the HTML one's) in every place of a session.
func TestHTMLHasNoMarkupFromTheSession(t *testing.T) {
	for _, h := range append(append([]string{}, hostile...), hostileHTML...) {
		checkHTML(t, h)
	}
}

// FuzzHTML: any text in every place of a session.
func FuzzHTML(f *testing.F) {
	for _, h := range append(append([]string{}, hostile...), hostileHTML...) {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, h string) { checkHTML(t, h) })
}

// Each pi fixture makes a page of the template's shape.
func TestHTMLFixtures(t *testing.T) {
	files, _ := filepath.Glob("../testdata/pi/store/*/*.jsonl")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := store.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := HTML(&out, s, Options{}); err != nil {
			t.Fatal(err)
		}
		checkPage(t, f, out.Bytes())
	}
}

// piTree is a pi session of three branches: the resumed one (u1 a1 u2
// a2), one from a1 (u3 a3) and one from u3 (a4). Text "T:<id>" marks
// each message.
func piTree() []byte {
	msg := func(id, parent, role string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		content := `"T:` + id + `"`
		if role == "assistant" {
			content = `[{"type":"text","text":"T:` + id + `"},{"type":"toolCall","id":"call-` + id + `","name":"bash","arguments":{"command":"echo C:` + id + `"}}]`
		}
		return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-05-01T10:00:00.000Z","message":{"role":%q,"content":%s,"timestamp":1}}`, id, p, role, content)
	}
	lines := []string{
		`{"type":"session","version":3,"id":"tree","timestamp":"2026-05-01T10:00:00.000Z","cwd":"/w"}`,
		msg("u1", "", "user"), msg("a1", "u1", "assistant"),
		msg("u3", "a1", "user"), msg("a3", "u3", "assistant"), msg("a4", "u3", "assistant"),
		msg("u2", "a1", "user"), msg("a2", "u2", "assistant"),
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// shownText is what the page shows for a branch, as its script shows it:
// the sections its option names, each whole or to its cut.
func shownText(t *testing.T, doc *html.Node, segs string) []string {
	t.Helper()
	byID := map[string]*html.Node{}
	walk(doc, func(n *html.Node) {
		if id, ok := attr(n, "id"); ok {
			byID[id] = n
		}
	})
	var out []string
	for _, part := range strings.Fields(segs) {
		seg, cut, _ := strings.Cut(part, ":")
		s := byID["s"+seg]
		if s == nil {
			t.Fatalf("no section s%s", seg)
		}
		for c := s.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == "article" {
				x := c.FirstChild
				for x != nil && !hasClass(x, "x") && !hasClass(x, "md") { // text, or markdown
					x = x.NextSibling
				}
				if x == nil {
					t.Fatalf("a message without text: %s", textOf(c))
				}
				out = append(out, strings.TrimSpace(textOf(x)))
				if id, _ := attr(c, "id"); cut != "" && id == "m"+cut {
					break
				}
			}
		}
	}
	return out
}

func TestHTMLBranches(t *testing.T) {
	s, err := store.Parse(piTree())
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := HTML(&out, s, Options{}); err != nil {
		t.Fatal(err)
	}
	doc := checkPage(t, "tree", out.Bytes())
	var opts []*html.Node
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "option" {
			opts = append(opts, n)
		}
	})
	// Each message's text is its first word after the role.
	want := [][]string{
		{"T:u1", "T:a1", "T:u2", "T:a2"},
		{"T:u1", "T:a1", "T:u3", "T:a3"},
		{"T:u1", "T:a1", "T:u3", "T:a4"},
	}
	if len(opts) != len(want) {
		t.Fatalf("%d options, want %d:\n%s", len(opts), len(want), out.Bytes())
	}
	for k, o := range opts {
		segs, _ := attr(o, "data-segs")
		got := shownText(t, doc, segs)
		if strings.Join(got, " ") != strings.Join(want[k], " ") {
			t.Errorf("branch %d (%q) shows %v, want %v", k+1, segs, got, want[k])
		}
		if _, sel := attr(o, "selected"); sel != (k == 0) {
			t.Errorf("branch %d selected: %v", k+1, sel)
		}
	}
	// Only the resumed branch's section is shown without the script.
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && hasClass(n, "seg") {
			id, _ := attr(n, "id")
			if _, hidden := attr(n, "hidden"); hidden != (id != "s0") {
				t.Errorf("section %s hidden: %v", id, hidden)
			}
		}
	})
	// Tool calls and thinking are collapsed.
	if !strings.Contains(out.String(), `<details class="call"><summary><b>bash</b> · echo C:a1</summary>`) {
		t.Errorf("no collapsed call:\n%s", out.Bytes())
	}
}

func TestHTMLImages(t *testing.T) {
	for _, c := range []struct {
		mime, data string
		img        bool
	}{
		{"image/png", pixel, true},
		{"IMAGE/JPEG", pixel, true},
		{"image/svg+xml", pixel, false},
		{"text/html", pixel, false},
		{"image/png", pixel + `"><script>alert(1)</script>`, false},
		{"image/png", "abc", false},
		{"image/png", "", false},
	} {
		data := fmt.Sprintf(`{"type":"session","version":3,"id":"i","timestamp":"2026-05-01T10:00:00.000Z","cwd":"/w"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-05-01T10:00:01.000Z","message":{"role":"user","content":[{"type":"image","mimeType":%s,"data":%s}],"timestamp":1}}
`, jsonQuote(c.mime), jsonQuote(c.data))
		s, err := store.Parse([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := HTML(&out, s, Options{}); err != nil {
			t.Fatal(err)
		}
		doc := checkPage(t, c.mime, out.Bytes())
		n := 0
		walk(doc, func(n2 *html.Node) {
			if n2.Type == html.ElementNode && n2.Data == "img" {
				n++
			}
		})
		if got := n == 1; got != c.img || !c.img && !strings.Contains(textOf(doc), "[image ") {
			t.Errorf("%s %.20q: %d images\n%s", c.mime, c.data, n, out.Bytes())
		}
	}
}

func TestHTMLHighlight(t *testing.T) {
	s, err := store.Parse(richSession())
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := HTML(&out, s, Options{Location: time.UTC}); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	for _, want := range []string{
		`<span class="f">` + "```go</span>\n" + `<span class="c">// Add adds.</span>` + "\n" + `<span class="k">func</span> Add(a, b <span class="k">int</span>`,
		`<span class="c">/* sum */</span>`, `<span class="s">&#34;x&#34;</span>`, "<span class=\"s\">`y`</span>",
		`<span class="c"># a comment</span>`, `<span class="k">print</span>(<span class="s">&#39;hi&#39;</span>, <span class="n">42</span>)`,
		`<span class="c">-- all</span>` + "\n" + `<span class="k">SELECT</span> * <span class="k">FROM</span> t;`,
		"<span class=\"f\">```</span>\nunclosed</code></pre>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("no %q in\n%s", want, page)
		}
	}
}

// A control character is shown, not written.
func TestHTMLControlCharacters(t *testing.T) {
	s, err := store.Parse(piSession(t, "a\x1b]0;title\x07b \x1b[31mred\x1b[0m \u202e"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := HTML(&out, s, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range out.Bytes() {
		if c < 0x20 && c != '\n' || c == 0x7f {
			t.Fatalf("a control byte %#x in the page", c)
		}
	}
	if p := out.String(); !strings.Contains(p, "a␛]0;title␇b ␛[31mred␛[0m ⟨U+202E⟩") || !strings.Contains(p, "a␛]0;title␇b red ⟨U+202E⟩") {
		t.Errorf("control characters not shown:\n%s", p)
	}
}

func TestHTMLEmptySession(t *testing.T) {
	s, err := store.Parse([]byte(`{"type":"session","version":3,"id":"e","timestamp":"2026-05-01T10:00:00.000Z","cwd":"/w"}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := HTML(&out, s, Options{}); err != nil {
		t.Fatal(err)
	}
	doc := checkPage(t, "empty", out.Bytes())
	if !strings.Contains(textOf(doc), "This session has no messages.") {
		t.Errorf("%s", out.Bytes())
	}
}

// piLong is a pi session of n messages, prompts and answers in turn, the
// last one's text "the last message".
func piLong(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"session","version":3,"id":"long","timestamp":"2026-05-01T10:00:00.000Z","cwd":"/w"}` + "\n")
	for i := range n {
		parent := "null"
		if i > 0 {
			parent = fmt.Sprintf(`"e%d"`, i-1)
		}
		text := fmt.Sprintf("message %d: the parser needs a second pass because nested generics confuse the lexer", i)
		if i == n-1 {
			text = "the last message"
		}
		if i%2 == 0 {
			fmt.Fprintf(&b, `{"type":"message","id":"e%d","parentId":%s,"timestamp":"2026-05-01T10:00:00.000Z","message":{"role":"user","content":%q,"timestamp":%d}}`+"\n", i, parent, text, 1777629600000+i)
		} else {
			fmt.Fprintf(&b, `{"type":"message","id":"e%d","parentId":%s,"timestamp":"2026-05-01T10:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":%q}],"provider":"p","model":"m","stopReason":"stop","timestamp":%d}}`+"\n", i, parent, text, 1777629600000+i)
		}
	}
	return b.Bytes()
}

// BenchmarkHTML100MB exports a synthetic pi session of 100 MB (the
// target: at least 100 MB/s, measured on the session's bytes), as it is
// (plain) and with its secrets redacted (the target: at most 20% slower;
// -count N runs the two in turn, so that a busy machine slows both).
func BenchmarkHTML100MB(b *testing.B) {
	if testing.Short() {
		b.Skip("a 100 MB session")
	}
	path := filepath.Join(b.TempDir(), "big.jsonl")
	if err := synth.Session(path, "/home/dev/big", 100<<20, time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), 3); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	s, err := store.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	for _, redact := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "redacted"}[redact]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if err := HTML(io.Discard, s, Options{Redact: redact}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A turn that ended as turns do says nothing of it (pi's toolUse, Claude's
// tool_use and end_turn were "stopped: tool_use" on every message); one
// cut by its length limit says so.
func TestHTMLStopsOnlyWhenItMatters(t *testing.T) {
	for reason, want := range map[string]string{"tool_use": "", "end_turn": "", "toolUse": "", "stop": "", "tool_calls": "",
		"max_tokens": "stopped: the answer reached its length limit", "length": "stopped: the answer reached its length limit",
		"refusal": "stopped: refusal"} {
		if got := stopNote(reason); got != want {
			t.Errorf("%q: %q, want %q", reason, got, want)
		}
	}
}
