package tui

import (
	"slices"
	"strings"

	"skein/store"
)

// The list tells whose session each is: an agent column, the agent in the
// preview, and a filter by agent, from the a key (every agent listed in
// turn) or agent:NAME in the / box (the agent's name in any case, or its
// format's, as skein search takes it). The names come from the formats'
// wording (store.AgentOf, store.AgentIs): no screen compares a format.

// agentColW is the agent column's width: "Codex", "Claude", "Copilot",
// "Factory", "OpenClaw", "oh-my-pi" fit (the first word of a longer name).
const agentColW = 8

// agentCell is an agent's name as its column shows it: whole when it fits,
// else its first word ("Claude" for Claude Code), cut to the width.
func agentCell(name string, w int) string {
	if len(name) > w {
		if first, _, ok := strings.Cut(name, " "); ok {
			name = first
		}
	}
	return truncate(name, w)
}

// agentsListed are the agents whose sessions are listed, by name.
func (l *listScreen) agentsListed() []string {
	var names []string
	for _, in := range l.infos {
		if a := store.AgentOf(*in); !slices.Contains(names, a) {
			names = append(names, a)
		}
	}
	slices.SortFunc(names, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	return names
}

// nextAgent moves the a key's filter on to the next agent listed, then
// back to every agent.
func (l *listScreen) nextAgent() {
	names := l.agentsListed()
	k := slices.Index(names, l.agent)
	switch {
	case l.agent == "" && len(names) > 0:
		l.agent = names[0]
	case k >= 0 && k+1 < len(names):
		l.agent = names[k+1]
	default:
		l.agent = ""
	}
	sel := l.selectedPath()
	l.rebuild()
	l.selectPath(sel)
}

// splitAgent takes the agent: terms out of a filter: the agents they name
// and the rest, which the filter matches as words. "agent:claude code"
// (quoted, as search reads it) names an agent with a space.
func splitAgent(filter string) (agents []string, rest string) {
	var b strings.Builder
	for s := filter; s != ""; {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			break
		}
		var tok string
		quoted := strings.HasPrefix(s, `"`)
		if quoted {
			end := strings.Index(s[1:], `"`)
			if end < 0 {
				tok, s = s, ""
			} else {
				tok, s = s[:end+2], s[end+2:]
			}
		} else if i := strings.IndexAny(s, " \t"); i >= 0 {
			tok, s = s[:i], s[i:]
		} else {
			tok, s = s, ""
		}
		low := strings.ToLower(strings.Trim(tok, `"`))
		name, isAgent := strings.CutPrefix(low, "agent:")
		if isAgent {
			if name != "" {
				agents = append(agents, name)
			}
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(tok)
	}
	return agents, b.String()
}

// agentsAsked are the agents the list is narrowed to: the a key's and the
// / box's.
func (l *listScreen) agentsAsked() []string {
	typed, _ := splitAgent(l.filter)
	if l.agent != "" {
		typed = append(typed, l.agent)
	}
	return typed
}

// ofAgents reports whether in is a session of every agent asked.
func ofAgents(in *store.Info, agents []string) bool {
	for _, a := range agents {
		if !store.AgentIs(store.Of(*in), a) {
			return false
		}
	}
	return true
}

// filterWords are the filter's words as the list matches them, in lower
// case, without its agent: terms.
func (l *listScreen) filterWords() []string {
	_, rest := splitAgent(l.filter)
	return strings.Fields(strings.ToLower(rest))
}
