package tui

import (
	"strings"
	"testing"
)

// textSearch types a filter and runs its text search to its end, as the
// program does a moment after the last key.
func textSearchFor(m *Model, query string) {
	press(m, "/")
	for _, r := range query[:len(query)-1] {
		press(m, string(r))
	}
	run(m, press(m, query[len(query)-1:]))
}

// The list's / box finds sessions by their messages too: after the ones
// its name, folder or first message match, each other session whose text
// matches, with its best snippet, the match highlighted; Enter opens it at
// that message with the match marked, and n, N stay among its matches.
func TestListSearchesTheMessages(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	textSearchFor(m, "correlate")
	var hitRow = -1
	for i, r := range m.list.rows {
		if r.hit != nil {
			if hitRow >= 0 {
				t.Fatalf("two text rows for one session's word: %+v", m.list.rows)
			}
			hitRow = i
		}
	}
	if hitRow < 0 {
		t.Fatalf("no text match for correlate:\n%s", plain(m))
	}
	h := m.list.rows[hitRow].hit
	if !strings.Contains(h.Path, "pi16-overflow") || h.EntryID != "ebade31a" {
		t.Fatalf("the hit: %+v", h)
	}
	view := plain(m)
	for _, want := range []string{"⌕ Now correlate all the ti", "1 more by their messages"} {
		if !strings.Contains(view, want) {
			t.Errorf("the list lacks %q:\n%s", want, view)
		}
	}
	if !strings.Contains(m.View().Content, m.styles.Match.Render("correlate")) {
		t.Error("the matched word is not highlighted in the snippet")
	}

	// A word in a title and in other sessions' messages: name matches first.
	press(m, "esc")
	textSearchFor(m, "timeouts")
	var kinds []bool
	for _, r := range m.list.rows {
		kinds = append(kinds, r.hit != nil)
	}
	if len(kinds) < 2 || kinds[0] || !kinds[len(kinds)-1] {
		t.Errorf("want name matches, then text matches: %v", kinds)
	}
	seen := map[string]bool{}
	for _, r := range m.list.rows {
		if seen[r.info.Path] {
			t.Errorf("%s listed twice", r.info.Path)
		}
		seen[r.info.Path] = true
	}

	// Enter ends the typing, Enter again opens the text match's session at
	// its message, the match marked.
	press(m, "esc")
	textSearchFor(m, "correlate")
	press(m, "enter")
	m.list.cursor = hitRow
	run(m, press(m, "enter"))
	ss := m.session
	if ss == nil || ss.s == nil {
		t.Fatal("the session did not open")
	}
	sr := ss.search
	if sr == nil || sr.busy || len(sr.matches) != 1 {
		t.Fatalf("no search marks the match: %+v", sr)
	}
	if it := ss.msgs.items[sr.matches[sr.cur]]; ss.s.Entry(it.Message.Entry).ID != "ebade31a" || ss.msgs.focus != sr.matches[sr.cur] {
		t.Errorf("the pane shows item %d, not the hit's message", ss.msgs.focus)
	}
	if !strings.Contains(plain(m), "/correlate · 1/1 in the messages") {
		t.Errorf("the search line:\n%s", plain(m))
	}
	if !strings.Contains(m.View().Content, m.styles.Match.Render("correlate")) {
		t.Error("the match is not marked in the session")
	}
	run(m, press(m, "n"))
	if ss.msgs.focus != sr.matches[0] {
		t.Error("n left the only match")
	}
}

// A query the text search cannot parse says why on the filter line; the
// name filter still works.
func TestListSearchBadPattern(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	textSearchFor(m, "re:(")
	if !strings.Contains(plain(m), "· re: missing closing )") {
		t.Errorf("no reason on the filter line:\n%s", plain(m))
	}
}
