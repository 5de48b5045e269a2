package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A session's markdown links, in the message pane as drawn: each shows its
// real target, and the only hyperlink the view holds is one whose text is
// its http(s) target. No C1 or bidi control reaches the view, raw or as a
// character reference.
func TestLinksInTheViewShowTheirTarget(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "--home-dev-links--")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	text := `Clone [https://github.com/safe/repo](http://evil.example/x), read [notes](file:///etc/passwd), ` +
		`run [this](javascript:alert(1)) or see [https://docs.example/ok](https://docs.example/ok). ` +
		`Also &#x1b;]8;;http://evil.example/y&#x07;here&#x1b;]8;;&#x07;. ` +
		"C1 \u009b31m \u0085 &#x9b;2J, bidi \u202eevil \u2066i\u2069 \u200f &#x202e;rtl &rlm;."
	lines := []string{
		`{"type":"session","version":3,"id":"019cb7dc-6400-7181-b9fd-000000000001","timestamp":"2026-03-04T08:00:00.000Z","cwd":"/home/dev/links"}`,
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-03-04T08:00:01.000Z","message":{"role":"user","content":"Links please","timestamp":1772611201000}}`,
		`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-03-04T08:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":` + jsonString(text) + `}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","stopReason":"stop","timestamp":1772611202000}}`,
	}
	f := filepath.Join(dir, "2026-03-04T08-00-00-000Z_019cb7dc-6400-7181-b9fd-000000000001.jsonl")
	if err := os.WriteFile(f, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := loaded(t, 160, 40, true, filepath.Dir(dir))
	openFixture(t, m, "Links please")
	v := m.View().Content
	read := strings.Join(strings.Fields(ansi.Strip(v)), " ")
	for _, want := range []string{
		"https://github.com/safe/repo (http://evil.example/x)",
		"notes (file:///etc/passwd)",
		"this (javascript:alert(1))",
		"https://docs.example/ok",
		"␛]8;;http://evil.example/y␇here",
		"C1 ⟨U+009B⟩31m ⟨U+0085⟩ ›2J", // &#x9b; is › in HTML (Windows-1252)
		"bidi ⟨U+202E⟩evil", "⟨U+2066⟩i⟨U+2069⟩ ⟨U+200F⟩ ⟨U+202E⟩rtl ⟨U+200F⟩.",
	} {
		if !strings.Contains(read, want) {
			t.Errorf("the view lacks %q:\n%s", want, read)
		}
	}
	for _, r := range v {
		if r >= 0x80 && r <= 0x9F || r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C {
			t.Errorf("the view holds %U", r)
		}
	}
	for _, m := range regexp.MustCompile(`\x1b\]8;[^;\x07\x1b]*;([^\x07\x1b]*)`).FindAllStringSubmatch(v, -1) {
		if m[1] != "" && m[1] != "https://docs.example/ok" {
			t.Errorf("the view links to %q", m[1])
		}
	}
}

func jsonString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
