package store_test

import (
	"testing"

	"skein/store"
)

// An agent is named by its wording's name in any case and spelling of its
// spaces, or by its format's name; another agent's name is not it.
func TestAgentIs(t *testing.T) {
	cases := []struct {
		format store.Format
		yes    []string
		no     []string
	}{
		{store.FormatClaude, []string{"claude", "Claude Code", "claude-code", "CLAUDECODE", " claude_code "}, []string{"codex", "cl", "", "pi"}},
		{store.FormatCodex, []string{"codex", "Codex", "CODEX"}, []string{"claude", "cod"}},
		{store.FormatPi, []string{"pi", "PI"}, []string{"dhara", "p"}},
		{store.FormatDhara, []string{"dhara", "Dhara"}, []string{"dhara-0.5", "pi"}},
		{store.FormatDhara05, []string{"dhara", "dhara-0.5", "DHARA-0.5"}, []string{"claude"}},
	}
	for _, c := range cases {
		b := store.ForFormat(c.format)
		if b.Format() != c.format {
			t.Fatalf("%s is not registered", c.format)
		}
		for _, n := range c.yes {
			if !store.AgentIs(b, n) {
				t.Errorf("%s: %q does not name it", c.format, n)
			}
		}
		for _, n := range c.no {
			if store.AgentIs(b, n) {
				t.Errorf("%s: %q names it", c.format, n)
			}
		}
	}
	if got := store.AgentOf(store.Info{Format: string(store.FormatCodex)}); got != "Codex" {
		t.Errorf("AgentOf a Codex record: %q", got)
	}
}
