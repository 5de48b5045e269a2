package claude

import (
	"skein/internal/jscan"
	"skein/model"
)

// Sub-agents: which agent each entry belongs to, and the call that
// started each agent (FORMAT.md, "Decisions" 6).

// groupSidechains sets each entry's agent; the sidechains of the session's
// file that name no agent (Claude Code 1.0) are an agent for each chain,
// found from its root.
func (s *Session) groupSidechains(group []int32) {
	pendingRoot := map[int32]int32{} // root entry -> agent
	for k := range s.Entries {
		e := &s.Entries[k]
		g := group[e.first]
		if g != groupPending {
			e.Agent = int(g)
			continue
		}
		r := int32(k)
		for steps := 0; steps < len(s.Entries); steps++ {
			p := s.parent[r]
			if p < 0 || group[s.Entries[p].first] != groupPending {
				break
			}
			r = p
		}
		a, ok := pendingRoot[r]
		if !ok {
			s.Agents = append(s.Agents, Agent{Call: -1})
			a = int32(len(s.Agents) - 1)
			pendingRoot[r] = a
		}
		e.Agent = int(a)
	}
}

// attachAgents finds the call that started each agent and hangs the
// agent's roots under the entry holding it: by the agent file's
// meta.json toolUseId; else by a tool result whose toolUseResult.agentId
// (or, Claude Code 2.0, whose line's own agentId) names the agent; else,
// for a sidechain that names no agent, by its first prompt, the prompt of
// a Task or Agent call not yet matched.
func (s *Session) attachAgents() {
	if len(s.Agents) == 0 {
		return
	}
	for k := range s.Entries {
		if a := s.Entries[k].Agent; a >= 0 && s.parent[k] < 0 {
			s.Agents[a].Roots = append(s.Agents[a].Roots, k)
		}
	}
	calls := s.callIndex()
	byAgentID := map[string]string{}
	weak := map[string]string{}
	for k := range s.Entries {
		e := &s.Entries[k]
		if e.role != model.RoleToolResult || e.piece != 0 {
			continue
		}
		l := &s.lines[e.first]
		if tur := jscan.Member(l.raw, "toolUseResult"); len(tur) > 0 && tur[0] == '{' {
			if id, ok := jscan.String(jscan.Member(tur, "agentId")); ok && id != "" {
				if _, dup := byAgentID[id]; !dup {
					byAgentID[id] = e.ToolCallID
				}
			}
		}
		if l.agentID != "" && l.file == 0 && !l.has(flagSidechain) {
			if _, dup := weak[l.agentID]; !dup {
				weak[l.agentID] = e.ToolCallID
			}
		}
	}
	used := map[string]bool{}
	for a := range s.Agents {
		ag := &s.Agents[a]
		if f := s.agentFile(ag.File); f != nil && len(f.Meta) > 0 {
			if id, ok := jscan.String(jscan.Member(f.Meta, "toolUseId")); ok && id != "" {
				ag.CallID = id
			}
		}
		if ag.CallID == "" && ag.ID != "" {
			if id, ok := byAgentID[ag.ID]; ok {
				ag.CallID = id
			} else if id, ok := weak[ag.ID]; ok {
				ag.CallID = id
			}
		}
		if c, ok := calls[ag.CallID]; ok && ag.CallID != "" && s.Entries[c.entry].Agent != a {
			ag.Call = int(c.entry)
			used[ag.CallID] = true
		}
	}
	s.matchPrompts(calls, used)
	for a := range s.Agents {
		ag := &s.Agents[a]
		if ag.Call < 0 {
			continue
		}
		for _, r := range ag.Roots {
			s.parent[r] = int32(ag.Call)
		}
	}
}

// matchPrompts finds the calls of the agents still without one, Claude
// Code 1.0's sidechains: the first Task or Agent call not yet matched
// whose input.prompt is the agent's first prompt.
func (s *Session) matchPrompts(calls map[string]call, used map[string]bool) {
	unmatched := false
	for a := range s.Agents {
		unmatched = unmatched || s.Agents[a].Call < 0 && len(s.Agents[a].Roots) > 0
	}
	if !unmatched {
		return
	}
	open := map[string][]string{} // prompt -> the calls not yet matched, in file order
	for k := range s.Entries {
		if s.Entries[k].role != model.RoleAssistant {
			continue
		}
		for _, c := range s.callsOf(k) {
			if (c.Name == "Task" || c.Name == "Agent") && !used[c.ID] {
				if p, ok := jscan.String(jscan.Member(c.Input, "prompt")); ok && p != "" {
					open[p] = append(open[p], c.ID)
				}
			}
		}
	}
	for a := range s.Agents {
		ag := &s.Agents[a]
		if ag.Call >= 0 || len(ag.Roots) == 0 {
			continue
		}
		prompt := ""
		for _, r := range ag.Roots {
			if s.Entries[r].role == model.RoleUser {
				m := s.message(r, true)
				prompt = m.Text("\n")
				break
			}
		}
		list := open[prompt]
		for j, id := range list {
			c := calls[id]
			if s.Entries[c.entry].Agent == a {
				continue
			}
			ag.CallID, ag.Call = id, int(c.entry)
			open[prompt] = append(list[:j:j], list[j+1:]...)
			break
		}
	}
}

func (s *Session) agentFile(name string) *AgentFile {
	if name == "" {
		return nil
	}
	for i := range s.agentFiles {
		if s.agentFiles[i].Name == name {
			return &s.agentFiles[i]
		}
	}
	return nil
}
