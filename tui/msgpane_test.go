package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// j and k in the message pane never move the marker against the way they
// go: at the end of a long path (tab, G, j) it stays on the last message;
// on a path that fits the pane (n n, then j) it goes on to the next; k
// walks back the same way; page keys follow the same rule.
func TestMessageKeysMoveTheMarkerTheirWay(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		m := loaded(t, size[0], size[1], true, "demo")
		openFixture(t, m, "Rate limiting")
		ss := m.session
		last := len(ss.msgs.items) - 1
		press(m, "tab", "G")
		if ss.msgs.focus != last {
			t.Fatalf("%v: G: marker on %d, want %d", size, ss.msgs.focus, last)
		}
		for _, k := range []string{"j", "down", "pgdown"} {
			if k == "down" || k == "pgdown" {
				press(m, "G")
			}
			pressKey(m, k)
			if ss.msgs.focus != last {
				t.Errorf("%v: G then %s: marker on %d/%d, want the last", size, k, ss.msgs.focus+1, last+1)
			}
		}
		// Up from the end: the marker never goes down, and reaches the first.
		prev := ss.msgs.focus
		for range 400 {
			press(m, "k")
			if ss.msgs.focus > prev {
				t.Fatalf("%v: k moved the marker down, %d to %d", size, prev, ss.msgs.focus)
			}
			prev = ss.msgs.focus
		}
		if ss.msgs.focus != 0 {
			t.Errorf("%v: k all the way up: marker on %d", size, ss.msgs.focus)
		}
		// Down from the top: never up, and reaches the last.
		for range 400 {
			press(m, "j")
			if ss.msgs.focus < prev {
				t.Fatalf("%v: j moved the marker up, %d to %d", size, prev, ss.msgs.focus)
			}
			prev = ss.msgs.focus
		}
		if ss.msgs.focus != last {
			t.Errorf("%v: j all the way down: marker on %d, want %d", size, ss.msgs.focus, last)
		}
	}

	// A path that fits: n n from the first message, then j.
	m := loaded(t, 120, 40, true, "demo")
	openFixture(t, m, "Why does the header")
	ss := m.session
	press(m, "tab", "g", "n", "n")
	if ss.msgs.focus != 2 {
		t.Fatalf("g n n: marker on %d/%d, want 3", ss.msgs.focus+1, len(ss.msgs.items))
	}
	press(m, "j")
	if ss.msgs.focus != 3 {
		t.Errorf("g n n j: marker on %d/%d, want 4", ss.msgs.focus+1, len(ss.msgs.items))
	}
	press(m, "k", "k")
	if ss.msgs.focus != 1 {
		t.Errorf("then k k: marker on %d/%d, want 2", ss.msgs.focus+1, len(ss.msgs.items))
	}
}

// pressKey presses a key by its name, with the named keys press does not
// know.
func pressKey(m *Model, k string) {
	switch k {
	case "down":
		m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	case "pgdown":
		m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	default:
		press(m, k)
	}
}
