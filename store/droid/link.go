package droid

import (
	"skein/internal/jscan"
	"skein/model"
)

// link works out what the entries are and the tree. A message's parent is
// the message its parentId names; a message without one (the first, the
// context Droid injects) hangs under the session_start. A record that is
// no message (agent_turn_outcome, and kinds skein does not know) hangs
// under the message before it in the file, and is not a tip. A parentId
// not in the file makes a root, and so does one that would close a cycle.
// The leaf is the last message in the file: Droid appends each new
// message under the one before it.
func (s *Session) link() {
	n := len(s.Entries)
	s.parent = make([]int32, n)
	s.byID = map[string]int{}
	s.calls = map[string]string{}
	start := -1
	for i := range s.Entries {
		e := &s.Entries[i]
		switch e.Type {
		case TypeMessage:
			e.kind = model.EntryMessage
			e.role = model.RoleUser
			switch {
			case e.Visibility == "user_only" || e.Role == "assistant":
				e.role = model.RoleAssistant
			case hasBlock(e.Content, "tool_result"):
				e.role = model.RoleToolResult
			}
			if _, ok := s.byID[e.ID]; !ok {
				s.byID[e.ID] = i
			}
			if e.Role == "assistant" {
				jscan.Items(e.Content, func(b []byte) bool {
					if jscan.StringMember(b, "type") == "tool_use" {
						if id := jscan.StringMember(b, "id"); id != "" {
							s.calls[id] = jscan.StringMember(b, "name")
						}
					}
					return true
				})
			}
		case TypeSessionStart:
			if start < 0 {
				start = i
			}
		}
	}
	last := -1
	for i := range s.Entries {
		e := &s.Entries[i]
		s.parent[i] = -1
		switch {
		case e.Type == TypeMessage && e.ParentID != "":
			if j, ok := s.byID[e.ParentID]; ok && j != i {
				s.parent[i] = int32(j)
			} else {
				s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: e.Line, Msg: "parentId " + e.ParentID + " is not in the file: a root here", Warning: true})
			}
		case e.Type == TypeMessage:
			s.parent[i] = int32(start)
		case e.Type != TypeSessionStart:
			s.parent[i] = int32(last)
		}
		if e.Type == TypeMessage {
			last = i
			s.leaf = i
		}
	}
	model.BreakCyclesAtEntry(s.parent, func(j, _ int) {
		s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: s.Entries[j].Line, Msg: "parentId makes a cycle: a root here"})
	})
	s.SetParents(s.parent)
}

// hasBlock reports whether a content array holds a block of type typ.
func hasBlock(content []byte, typ string) bool {
	found := false
	jscan.Items(content, func(b []byte) bool {
		found = jscan.StringMember(b, "type") == typ
		return !found
	})
	return found
}

// Tips counts the messages no message has as its parent: the tree's
// branches.
func (s *Session) Tips() int {
	n := 0
	for i := range s.Entries {
		if s.Entries[i].kind != model.EntryMessage {
			continue
		}
		tip := true
		for _, k := range s.Children(i) {
			if s.Entries[k].kind == model.EntryMessage {
				tip = false
				break
			}
		}
		if tip {
			n++
		}
	}
	return n
}
