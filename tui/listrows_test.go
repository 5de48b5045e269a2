package tui

import (
	"strings"
	"testing"
)

// After a filter is applied and cleared, or the list scoped to a project,
// the list shows every row that fits: none hidden above while the end of
// the list leaves lines empty (/word, enter, esc, p: "14 of 1746" showed
// 10 rows, 4 hidden above).
func TestListShowsEveryRowThatFits(t *testing.T) {
	m := loaded(t, 100, 16, true, fixtureStore)
	h := m.list.listHeight()
	if len(m.list.rows) <= h {
		t.Fatalf("%d rows fit in %d lines: the test needs more", len(m.list.rows), h)
	}
	fits := func(what string) {
		t.Helper()
		l := &m.list
		if want := max(0, min(l.offset, len(l.rows)-h)); l.offset != want {
			t.Errorf("%s: %d rows from %d in %d lines: %d hidden above though they fit", what, len(l.rows), l.offset, h, l.offset-want)
		}
	}
	for i := range m.list.rows {
		m.list.cursor = 0
		m.list.clamp()
		for range i {
			press(m, "j")
		}
		name := truncate(title(m.list.selected()), 30)
		press(m, "p")
		fits("row " + name + ", p")
		press(m, "p")
		fits("row " + name + ", p p")
	}
	// A filter typed, kept, cleared; then the project only.
	press(m, "G")
	word := strings.Fields(title(m.list.selected()))[0]
	press(m, "/")
	typeText(m, word)
	press(m, "enter", "esc", "p")
	fits("/" + word + " enter esc p")
}
