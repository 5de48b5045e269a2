package tui

import (
	"strings"
	"testing"
)

func typeText(m *Model, text string) {
	for _, r := range text {
		press(m, string(r))
	}
}

// / searches the focused pane: the messages on the path, or every entry of
// every branch in the tree; it shows k/N and highlights the matches, n and
// N move between them, esc clears the search first and goes back only when
// none is active.
func TestSearchInTheSession(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	openFixture(t, m, "Cache: Redis vs SQLite")
	ss := m.session

	// The tree: "redis" is on a branch that is not the active one.
	run(m, press(m, "/"))
	typeText(m, "Redis")
	if !strings.Contains(plain(m), "/Redis") {
		t.Fatalf("the query is not shown:\n%s", plain(m))
	}
	run(m, press(m, "enter"))
	sr := ss.search
	if sr == nil || sr.busy || len(sr.matches) < 3 {
		t.Fatalf("tree search: %+v", sr)
	}
	for _, e := range sr.matches {
		msg := ss.s.EntryMessage(e)
		if !strings.Contains(strings.ToLower(msg.SearchText()), "redis") {
			t.Errorf("entry %d matched without redis", e)
		}
	}
	first := ss.tree.selected()
	if first != sr.matches[sr.cur] {
		t.Errorf("the cursor is on %d, not the match %d", first, sr.matches[sr.cur])
	}
	view := plain(m)
	if !strings.Contains(view, "/redis · "+itoa(sr.cur+1)+"/"+itoa(len(sr.matches))+" in the tree") {
		t.Errorf("no k/N:\n%s", view)
	}
	if !strings.Contains(m.View().Content, m.styles.Match.Render("Redis")) {
		t.Error("the match is not highlighted")
	}
	run(m, press(m, "n"))
	if ss.tree.selected() == first || ss.tree.selected() != sr.matches[sr.cur] {
		t.Errorf("n stayed on %d", ss.tree.selected())
	}
	run(m, press(m, "N"))
	if ss.tree.selected() != first {
		t.Errorf("N went to %d, not back to %d", ss.tree.selected(), first)
	}
	press(m, "esc")
	if ss.search != nil || m.session == nil {
		t.Fatal("esc did not clear the search, or left the session")
	}

	// The messages on the path.
	press(m, "tab")
	run(m, press(m, "/"))
	typeText(m, "cache")
	run(m, press(m, "enter"))
	sr = ss.search
	if sr == nil || sr.pane != paneMessages || len(sr.matches) == 0 {
		t.Fatalf("message search: %+v", sr)
	}
	if ss.msgs.focus != sr.matches[sr.cur] {
		t.Errorf("the pane shows item %d, not the match %d", ss.msgs.focus, sr.matches[sr.cur])
	}
	// A query with no match says so; q typed in a query is text.
	press(m, "esc")
	run(m, press(m, "/"))
	typeText(m, "qqq")
	if m.session == nil {
		t.Fatal("q in the query left the session")
	}
	run(m, press(m, "enter"))
	if !strings.Contains(plain(m), "no match") {
		t.Errorf("no note of no match:\n%s", plain(m))
	}
	press(m, "esc")
	press(m, "esc")
	if m.session != nil {
		t.Error("esc without a search did not go back")
	}
}
