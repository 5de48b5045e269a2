package store

import "strings"

// AgentIs reports whether name names the agent of b's sessions: the
// agent's name as its wording says it, in any case, with its spaces
// written as spaces, hyphens or nothing ("Claude Code", "claude-code",
// "claudecode"), or the format's own name ("claude", "dhara-0.5"). The
// list's agent filter and search's agent: ask it, so that no screen and no
// command compares a format.
func AgentIs(b Backend, name string) bool {
	name = agentKey(name)
	if name == "" {
		return false
	}
	return name == agentKey(b.Wording().Agent) || name == agentKey(string(b.Format()))
}

// agentKey is a name folded for AgentIs: lower case, without the spaces,
// hyphens and underscores people write in it or leave out.
func agentKey(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '_' {
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(s)))
}

// AgentOf is the name of the agent whose session a list record is ("pi",
// "Claude Code"), from its format's wording: no IO.
func AgentOf(info Info) string { return Of(info).Wording().Agent }
