package export

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"skein/store"
)

// These tests open pages in headless Chromium (Debian's chromium, which
// CI installs), with the network off: a proxy that is not there, and a
// profile of the test's own. They are skipped where there is no Chromium.

func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium or chromium-browser on PATH")
	return ""
}

// inChromium opens page (at #fragment) in headless Chromium and returns
// what it prints: with --dump-dom, the DOM after the page's script ran
// and virtual time ran out.
func inChromium(t *testing.T, page []byte, fragment string, args ...string) []byte {
	t.Helper()
	bin := chromiumPath(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "page.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	u := (&url.URL{Scheme: "file", Path: path, Fragment: fragment}).String()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	argv := append([]string{
		"--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--no-default-browser-check",
		"--disable-extensions", "--disable-sync", "--disable-background-networking", "--disable-component-update",
		"--disable-dev-shm-usage", "--user-data-dir=" + filepath.Join(dir, "profile"),
		"--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
		"--virtual-time-budget=5000", "--run-all-compositor-stages-before-draw",
	}, args...)
	cmd := exec.CommandContext(ctx, bin, append(argv, u)...)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// piBranchesHostile is a session of two branches whose texts would run
// script if they were markup: the resumed branch (a prompt, an answer
// with two tool calls, their results, a prompt and answer of its own) and
// a branch from its first answer's results with a prompt and answer of
// its own. Its name would end the title and run script too.
func piBranchesHostile() []byte {
	q := jsonQuote
	evil := []string{
		`<img src=x onerror="document.title='pwned';document.body.dataset.pwned=1">`,
		"</script><script>document.body.dataset.pwned=1</script>",
		"<!-- <script>document.body.dataset.pwned=1</script> -->",
		`<svg onload="document.body.dataset.pwned=1"></svg>`,
		`<a href="javascript:document.body.dataset.pwned=1">click</a>`,
		"</details></article></div><script>document.body.dataset.pwned=1</script>",
		"```html\n</code></pre><script>document.body.dataset.pwned=1</script>\n```",
	}
	bad := strings.Join(evil, "\n")
	ts := `"timestamp":"2026-05-01T10:00:00.000Z"`
	lines := []string{
		`{"type":"session","version":3,"id":"two","timestamp":"2026-05-01T10:00:00.000Z","cwd":"/w"}`,
		fmt.Sprintf(`{"type":"session_info","id":"n0","parentId":null,%s,"name":%s}`, ts, q("</title><script>document.body.dataset.pwned=1</script>")),
		fmt.Sprintf(`{"type":"message","id":"u1","parentId":"n0",%s,"message":{"role":"user","content":%s,"timestamp":1777629601000}}`, ts, q("FIRST-PROMPT "+bad)),
		fmt.Sprintf(`{"type":"message","id":"a1","parentId":"u1",%s,"message":{"role":"assistant","content":[{"type":"thinking","thinking":%s},{"type":"text","text":%s},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":%s}},{"type":"toolCall","id":"c2","name":"read","arguments":{"path":%s}}],"provider":"p","model":"m","stopReason":"toolUse","timestamp":1777629602000}}`,
			ts, q("THINKING "+bad), q("FIRST-ANSWER "+bad), q("CALL-ONE-TEXT "+bad), q("CALL-TWO-TEXT")),
		fmt.Sprintf(`{"type":"message","id":"r1","parentId":"a1",%s,"message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":%s}],"isError":false,"timestamp":1777629603000}}`, ts, q("RESULT-ONE "+bad)),
		fmt.Sprintf(`{"type":"message","id":"r2","parentId":"r1",%s,"message":{"role":"toolResult","toolCallId":"c2","toolName":"read","content":[{"type":"text","text":"RESULT-TWO"}],"isError":false,"timestamp":1777629604000}}`, ts),
		// The branch left behind.
		fmt.Sprintf(`{"type":"message","id":"u3","parentId":"r2",%s,"message":{"role":"user","content":%s,"timestamp":1777629605000}}`, ts, q("SECOND-BRANCH-PROMPT "+bad)),
		fmt.Sprintf(`{"type":"message","id":"a3","parentId":"u3",%s,"message":{"role":"assistant","content":[{"type":"text","text":%s}],"provider":"p","model":"m","stopReason":"stop","timestamp":1777629606000}}`, ts, q("SECOND-BRANCH-ANSWER")),
		// The resumed branch, written last.
		fmt.Sprintf(`{"type":"message","id":"u2","parentId":"r2",%s,"message":{"role":"user","content":%s,"timestamp":1777629607000}}`, ts, q("FIRST-BRANCH-PROMPT "+bad)),
		fmt.Sprintf(`{"type":"message","id":"a2","parentId":"u2",%s,"message":{"role":"assistant","content":[{"type":"text","text":%s}],"provider":"p","model":"m","stopReason":"stop","timestamp":1777629608000}}`, ts, q("FIRST-BRANCH-ANSWER")),
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// shown reports, for each element of the dumped DOM the page's test hook
// marked, whether Chromium showed it, by the text it starts with.
func shownByText(doc *html.Node) map[string]string {
	out := map[string]string{}
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		if v, ok := attr(n, "data-shown"); ok {
			txt := textOf(n)
			for _, marker := range []string{"FIRST-PROMPT", "FIRST-ANSWER", "CALL-ONE-TEXT", "CALL-TWO-TEXT", "RESULT-ONE", "RESULT-TWO", "SECOND-BRANCH-PROMPT", "SECOND-BRANCH-ANSWER", "FIRST-BRANCH-PROMPT", "FIRST-BRANCH-ANSWER", "THINKING"} {
				if strings.Contains(txt, marker) {
					out[marker+" in "+n.Data+"."+classOf(n)] = v
				}
			}
		}
	})
	return out
}

func classOf(n *html.Node) string {
	v, _ := attr(n, "class")
	return strings.ReplaceAll(v, " ", ".")
}

// TestHTMLInChromium: the page's script (allowed by the CSP's hash) picks
// the second branch in the selector and opens the first tool call shown;
// Chromium then shows the second branch's messages and not the first's
// own, the opened call's arguments and not the other call's; and no
// script of the session's ran.
func TestHTMLInChromium(t *testing.T) {
	s, err := store.Parse(piBranchesHostile())
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := HTML(&page, s, Options{}); err != nil {
		t.Fatal(err)
	}
	checkPage(t, "two branches", page.Bytes())
	dom := inChromium(t, page.Bytes(), "test", "--dump-dom")
	doc, err := html.Parse(bytes.NewReader(dom))
	if err != nil {
		t.Fatal(err)
	}
	var body, title *html.Node
	walk(doc, func(n *html.Node) {
		switch {
		case n.Type == html.ElementNode && n.Data == "body":
			body = n
		case n.Type == html.ElementNode && n.Data == "title":
			title = n
		}
	})
	if body == nil || title == nil {
		t.Fatalf("no body or title in\n%s", dom)
	}
	if v, _ := attr(body, "data-test"); v != "done" {
		t.Fatalf("the page's script did not run (data-test=%q): blocked by the CSP?\n%s", v, dom)
	}
	if _, ok := attr(body, "data-pwned"); ok {
		t.Errorf("a script of the session's ran")
	}
	if got := textOf(title); got != "</title><script>document.body.dataset.pwned=1</script>" {
		t.Errorf("the title is %q", got)
	}
	// Only the page's own elements: the session's <img>, <svg>, <script>
	// stayed text, and a link is the assistant's markdown's, to a page.
	scripts := 0
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		switch n.Data {
		case "img", "svg", "iframe":
			t.Errorf("an element <%s> in the page", n.Data)
		case "a":
			if h, _ := attr(n, "href"); !strings.HasPrefix(h, "https://") && !strings.HasPrefix(h, "http://") {
				t.Errorf("a link to %q in the page", h)
			}
		case "script":
			scripts++
		}
		for _, a := range n.Attr {
			if strings.HasPrefix(a.Key, "on") {
				t.Errorf("a handler %s on <%s>", a.Key, n.Data)
			}
		}
	})
	if scripts != 1 {
		t.Errorf("%d scripts in the page", scripts)
	}
	want := map[string]string{
		// The shared start, to the fork: shown.
		"FIRST-PROMPT in article.m.user":              "1",
		"FIRST-ANSWER in article.m.assistant":         "1",
		"RESULT-ONE in article.m.result":              "1",
		"RESULT-TWO in article.m.result.cut":          "1", // the last message before the fork
		"RESULT-TWO in pre.out":                       "1", // a short result, open
		"THINKING in div.md":                          "0", // collapsed
		"CALL-ONE-TEXT in pre.in":                     "1", // the call the script opened
		"CALL-TWO-TEXT in pre.in":                     "0", // still collapsed
		"SECOND-BRANCH-PROMPT in article.m.user":      "1",
		"SECOND-BRANCH-ANSWER in article.m.assistant": "1",
		// The first branch's own messages: hidden.
		"FIRST-BRANCH-PROMPT in article.m.user":      "0",
		"FIRST-BRANCH-ANSWER in article.m.assistant": "0",
	}
	got := shownByText(doc)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: shown %q, want %q", k, got[k], v)
		}
	}
	if t.Failed() {
		t.Logf("shown: %v", got)
	}
	// The opened call is the first one, its details open.
	opened := 0
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "details" && hasClass(n, "call") {
			if _, ok := attr(n, "open"); ok {
				opened++
				if !strings.Contains(textOf(n), "CALL-ONE-TEXT") {
					t.Errorf("the call opened is %q", textOf(n))
				}
			}
		}
	})
	if opened != 1 {
		t.Errorf("%d calls open", opened)
	}
}

// TestHTMLInChromiumLong: a page of 10,000 messages opens drawn (a
// screenshot of it is not blank, in the light scheme and in the dark) and
// scrolls to its end drawn: once Chromium scrolled there, as the End key
// does, the messages in the window are the last ones and none of them is
// skipped.
func TestHTMLInChromiumLong(t *testing.T) {
	chromiumPath(t)
	s, err := store.Parse(piLong(10000))
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := HTML(&page, s, Options{}); err != nil {
		t.Fatal(err)
	}
	dom := inChromium(t, page.Bytes(), "test-scroll", "--window-size=1000,800", "--dump-dom")
	if n := bytes.Count(dom, []byte("<article ")); n != 10000 || !bytes.Contains(dom, []byte("the last message")) {
		t.Fatalf("%d messages in the DOM, the last one there: %v", n, bytes.Contains(dom, []byte("the last message")))
	}
	doc, err := html.Parse(bytes.NewReader(dom))
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "body" {
			v, _ := attr(n, "data-test")
			seen = strings.Fields(v)
		}
	})
	if len(seen) < 4 || seen[0] != "scrolled" || seen[len(seen)-1] != "m9999" || strings.Contains(strings.Join(seen, " "), "skipped") {
		t.Errorf("at the end of the page, the window shows %v, want the last messages, drawn", seen)
	}
	for _, c := range []struct {
		name string
		args []string
		dark bool
	}{{"light", nil, false}, {"dark", []string{"--force-dark-mode"}, true}} {
		shot := filepath.Join(t.TempDir(), "shot.png")
		inChromium(t, page.Bytes(), "", append([]string{"--window-size=1000,800", "--hide-scrollbars", "--screenshot=" + shot}, c.args...)...)
		f, err := os.Open(shot)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		bg, other := countColours(img)
		if other < 20000 {
			t.Errorf("%s: the page is blank: %d pixels of another colour than the background", c.name, other)
		}
		if (bg.r+bg.g+bg.b < 3*128) != c.dark {
			t.Errorf("%s: the background is rgb(%d,%d,%d)", c.name, bg.r, bg.g, bg.b)
		}
	}
}

type rgb struct{ r, g, b uint32 }

// countColours is the most common colour of img and how many pixels are
// of another.
func countColours(img image.Image) (rgb, int) {
	counts := map[rgb]int{}
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			counts[rgb{r >> 8, g >> 8, b >> 8}]++
		}
	}
	var bg rgb
	for c, n := range counts {
		if n > counts[bg] {
			bg = c
		}
	}
	return bg, bounds.Dx()*bounds.Dy() - counts[bg]
}
