package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestDiffFlow: m marks the leaf's branch, G selects the other branch's
// tip, D compares them off Update (the screen says it is comparing until
// the command's result comes), n moves to the differences, enter opens
// the side of the one selected at its message; esc goes back.
func TestDiffFlow(t *testing.T) {
	for _, size := range []struct {
		w, h int
		want string
	}{{80, 24, "stacked"}, {160, 40, "side by side"}} {
		m := loaded(t, size.w, size.h, true, fixtureStore)
		openFixture(t, m, "Cache: Redis vs SQLite")
		if cmd := press(m, "D"); m.screen != screenSession || cmd == nil {
			t.Fatalf("D with no mark: screen %v", m.screen)
		}
		press(m, "m")
		if m.mark == nil || m.mark.entry != "3b5401ca" {
			t.Fatalf("mark %+v", m.mark)
		}
		press(m, "G")
		cmd := press(m, "D")
		if m.screen != screenDiff || m.diff == nil || !m.diff.loading || m.diff.d != nil {
			t.Fatalf("D: screen %v; the comparison must run in the command", m.screen)
		}
		if !strings.Contains(plain(m), "comparing…") {
			t.Errorf("no busy note:\n%s", plain(m))
		}
		run(m, cmd)
		view := plain(m)
		for _, want := range []string{size.want, "── left only: 3 messages", "── right only: 6 messages, 1 tool call", "~/webapp/src/cache.ts"} {
			if !strings.Contains(view, want) {
				t.Errorf("%dx%d: the view lacks %q:\n%s", size.w, size.h, want, view)
			}
		}
		if size.w >= sideBySideWidth && !strings.Contains(view, "│ ── right only") {
			t.Errorf("not side by side at %d:\n%s", size.w, view)
		}
		if size.w < sideBySideWidth && strings.Contains(view, "│ ── right only") {
			t.Errorf("side by side at %d:\n%s", size.w, view)
		}
		// Every size draws, down to 1x1, and comes back.
		for _, sz := range [][2]int{{40, 12}, {1, 1}, {119, 30}, {120, 30}, {size.w, size.h}} {
			m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			if v := plain(m); sz[0] >= minWidth && !strings.Contains(v, "compare") {
				t.Errorf("%dx%d:\n%s", sz[0], sz[1], v)
			}
		}
		// The fourth difference is the right side's first message.
		press(m, "n", "n", "n", "n")
		if l := m.diff.lines[m.diff.targets[m.diff.sel]]; l.Side != 1 || !strings.Contains(l.Text, "90cac707") {
			t.Fatalf("selected %+v", l)
		}
		run(m, press(m, "enter"))
		if m.screen != screenSession || m.session == nil || m.session.s == nil {
			t.Fatalf("enter: screen %v", m.screen)
		}
		if id := m.session.s.Entry(m.session.target()).ID; id != "90cac707" {
			t.Fatalf("enter opened the session at %s, not 90cac707", id)
		}
		// Back from a comparison to where D was pressed.
		press(m, "m")
		run(m, press(m, "D"))
		if m.screen != screenDiff {
			t.Fatalf("D again: screen %v", m.screen)
		}
		m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
		if m.screen != screenSession || m.diff != nil {
			t.Errorf("esc: screen %v", m.screen)
		}
	}
}

// TestDiffFromTheList marks a session in the list and compares it with
// another: two sessions, compared by what was said.
func TestDiffFromTheList(t *testing.T) {
	m := loaded(t, 120, 40, true, fixtureStore)
	if len(m.list.rows) < 2 {
		t.Fatal("too few sessions")
	}
	m.list.cursor = 0
	press(m, "m")
	m.list.cursor = 1
	run(m, press(m, "D"))
	if m.screen != screenDiff || m.diff.d == nil || m.diff.d.SameSession || m.diff.err != nil {
		t.Fatalf("screen %v, diff %+v", m.screen, m.diff)
	}
	if !strings.Contains(plain(m), "── left only") {
		t.Errorf("view:\n%s", plain(m))
	}
	press(m, "esc")
	if m.screen != screenList {
		t.Errorf("esc: screen %v", m.screen)
	}
}
