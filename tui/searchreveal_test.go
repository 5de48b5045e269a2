package tui

import (
	"strings"
	"testing"
)

// msgPaneText is what the message pane shows, without styles.
func msgPaneText(m *Model) string { return plainOf(m.session.msgs.View()) }

// findInMessages searches the open session's messages for query, as / and
// enter in the messages pane do, and waits for the matches.
func findInMessages(m *Model, query string) {
	if m.session.focus != paneMessages {
		press(m, "tab")
	}
	press(m, "/")
	typeText(m, query)
	run(m, press(m, "enter"))
}

// A match in what the pane hides (the lines after a tool result's first
// dozen, thinking) is revealed and scrolled to, at every size: with n, N,
// and when the list's search opens the session at it.
func TestSearchRevealsAndScrollsToTheMatch(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		m := loaded(t, size[0], size[1], true, fixtureStore)
		openFixture(t, m, "What does logs/api.log say?")
		// id=1496 is on the 39th line of a read's result, of which 12 show.
		findInMessages(m, "id=1496")
		if v := msgPaneText(m); !strings.Contains(v, "id=1496") {
			t.Errorf("%v: the match is not on screen:\n%s", size, v)
		}
		if sr := m.session.search; sr == nil || len(sr.matches) == 0 || m.session.msgs.focus != sr.matches[sr.cur] {
			t.Errorf("%v: the marker is not on the match", size)
		}
		// Two logs read: a match past the lines shown in each, n and
		// N go to each.
		press(m, "esc", "q")
		openFixture(t, m, "Read logs/day1.log")
		findInMessages(m, "10:38:00Z ERROR")
		for _, k := range []string{"n", "n", "N", "N", "N"} {
			press(m, k)
			sr := m.session.search
			if sr == nil || len(sr.matches) < 2 {
				t.Fatalf("%v: not two matches for 10:38:00Z ERROR", size)
			}
			if v := msgPaneText(m); !strings.Contains(v, "10:38:00Z ERROR") || m.session.msgs.focus != sr.matches[sr.cur] {
				t.Errorf("%v: after %s the match %d/%d is not on screen:\n%s", size, k, sr.cur+1, len(sr.matches), v)
			}
		}
	}
	// Thinking, hidden until t, is shown for a match in it, and a note
	// says so.
	m := loaded(t, 80, 24, true, "demo")
	openFixture(t, m, "Why does the header")
	findInMessages(m, "nav wrapping")
	if v := msgPaneText(m); !strings.Contains(v, "nav wrapping") || !m.session.msgs.thinking {
		t.Errorf("a match in thinking is not shown:\n%s", v)
	}
	if !strings.Contains(m.statusText, "thinking shown") {
		t.Errorf("status %q", m.statusText)
	}
	// The same from the list's search, which marks each word apart: "nav"
	// is in the reply's text too, "wrapping" only in the thinking.
	m = loaded(t, 80, 24, true, "demo")
	textSearchFor(m, "nav wrapping")
	press(m, "enter") // the filter kept
	for i, r := range m.list.rows {
		if r.hit != nil {
			m.list.cursor = i
		}
	}
	run(m, press(m, "enter"))
	if m.session == nil {
		t.Fatalf("the text match did not open:\n%s", plain(m))
	}
	if v := msgPaneText(m); !strings.Contains(v, "nav wrapping") || !m.session.msgs.thinking {
		t.Errorf("opened from the list, a match in thinking is not shown:\n%s", v)
	}
}
