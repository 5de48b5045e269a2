package theme

import (
	"strings"
	"sync"
	"testing"

	"charm.land/glamour/v2"
)

// TestHighlightingFirstUseFromManyGoroutines renders code from several
// goroutines at once as the first use of chroma in this test binary: skein's
// copy of chroma loads its lexers and styles then, and must do so once and
// safely (run with -race). Every render must come out the same, highlighted.
func TestHighlightingFirstUseFromManyGoroutines(t *testing.T) {
	const md = "```go\nfunc answer() int { return 42 }\n```\n\n```python\ndef answer():\n    return 42\n```"
	out := make([]string, 8)
	var wg sync.WaitGroup
	for k := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := glamour.NewTermRenderer(glamour.WithStyles(Glamour(k%2 == 0)), glamour.WithWordWrap(60))
			if err != nil {
				t.Error(err)
				return
			}
			if out[k], err = r.Render(md); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	// The same code as plain text: no lexer, so fewer style changes.
	r, err := glamour.NewTermRenderer(glamour.WithStyles(Glamour(true)), glamour.WithWordWrap(60))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := r.Render(strings.NewReplacer("```go", "```text", "```python", "```text").Replace(md))
	if err != nil {
		t.Fatal(err)
	}
	for k, o := range out {
		if o != out[k%2] {
			t.Errorf("render %d differs from render %d", k, k%2)
		}
		if strings.Count(o, "\x1b[") <= strings.Count(plain, "\x1b[") {
			t.Errorf("render %d is not highlighted: %q", k, o)
		}
	}
}
