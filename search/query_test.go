package search

import (
	"fmt"
	"testing"
)

func TestParse(t *testing.T) {
	q, err := Parse(`Redis cache "a phrase here" re:wombat-\d+ role:user tool:bash cwd:/home/dev "re:two words"`)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(q.Words) != "[redis cache]" || fmt.Sprint(q.Phrases) != "[[a phrase here]]" || len(q.Regexps) != 2 ||
		q.Regexps[0].String() != `wombat-\d+` || q.Regexps[1].String() != "two words" || q.Role != "user" || q.Tool != "bash" || q.Cwd != "/home/dev" {
		t.Errorf("parsed %+v", q)
	}
	for _, bad := range []string{"", "   ", "re:(", "re:"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if q, err := Parse(`"role:user"`); err != nil || len(q.Words) != 0 || len(q.Phrases) != 1 {
		t.Errorf("a quoted role: is text: %+v %v", q, err)
	}
}

func TestMatch(t *testing.T) {
	cases := []struct {
		query, text string
		ok          bool
		ranges      string
	}{
		{"cache", "The Cache is warm; a cachet too", true, "[[4 9] [21 26]]"}, // word starts only: "cachet" starts a word
		{"ache", "The cache", false, "[]"},
		{"redis cache", "cache before redis", true, "[[0 5] [13 18]]"},
		{"redis nope", "redis", false, "[[0 5]]"},
		{`"redis is"`, "Redis is down; redis  is up; redisis no", true, "[[0 8] [15 24]]"},
		{`"is down"`, "this down", false, "[]"},
		{`re:wombat-\d+`, "a wombat-42 and wombat-7", true, "[[2 11] [16 24]]"},
		{"ünï", "Ünïcode text", true, "[[0 5]]"},
		{"多语言", "a 多语言 b", true, "[[2 11]]"},
	}
	for _, c := range cases {
		q, err := Parse(c.query)
		if err != nil {
			t.Fatal(err)
		}
		r, _, ok := q.Match(c.text)
		if r == nil {
			r = [][2]int{}
		}
		if ok != c.ok || fmt.Sprint(r) != c.ranges {
			t.Errorf("%s in %q: %v %v, want %v %s", c.query, c.text, ok, r, c.ok, c.ranges)
		}
	}
}

// Fold keeps every byte offset: other-length lower cases and bytes that
// are not UTF-8 stay as they are.
func TestFoldKeepsOffsets(t *testing.T) {
	for _, in := range []string{"ABC déjà VU", "İstanbul Ⱥ", "a\xffB\xe2\x82C", "多语言 ✨"} {
		if out := Fold(in); len(out) != len(in) {
			t.Errorf("Fold(%q) = %q: %d bytes, want %d", in, out, len(out), len(in))
		}
	}
	if got := Fold("ABC déjà VU"); got != "abc déjà vu" {
		t.Errorf("Fold: %q", got)
	}
}
