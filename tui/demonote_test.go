package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The demo says what it is: that changes are thrown away on exit, and,
// when it opened because no folder held a session, which folders skein
// looked in.
func TestDemoExplainsItself(t *testing.T) {
	for _, c := range []struct {
		looked []string
		want   []string
	}{
		{nil, []string{"Demo: changes are thrown away on exit."}},
		{[]string{"/home/dev/.pi/agent/sessions", "/home/dev/.claude/projects"},
			[]string{"Demo: changes are thrown away on exit.", "No sessions in ~/.pi/agent/sessions, ~/.claude/projects"}},
	} {
		m := New(Options{Roots: []string{t.TempDir()}, Demo: true, DemoLooked: c.looked, Home: "/home/dev"})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
		v := plain(m)
		for _, w := range c.want {
			if !strings.Contains(v, w) {
				t.Errorf("looked in %q: the list lacks %q:\n%s", c.looked, w, v)
			}
		}
	}
}
