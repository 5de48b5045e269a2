package qwen

import (
	"skein/internal/jscan"
	"skein/model"
)

// link works out what the entries are and the tree: each entry's parent
// is the first entry with its parentUuid (prepareTranscriptRecords keeps
// the first record of a uuid, and adds the later ones' parts to it); a
// fragment's parent is the entry it belongs to; a parent that is not in
// the file makes a root (Qwen Code stops its walk there: a history gap),
// and so does one that would close a cycle. The leaf is the last record
// Qwen Code's reader counts as conversation (selectTranscriptLeaf), or
// the first of its uuid.
func (s *Session) link() {
	n := len(s.Entries)
	s.parent = make([]int32, n)
	s.calls = map[string]call{}
	s.byUUID = map[string]int{}
	uuids := make([]map[string]int, len(s.Agents)+1)
	for f := range uuids {
		uuids[f] = map[string]int{}
	}
	uuids[0] = s.byUUID
	for i := range s.Entries {
		e := &s.Entries[i]
		if j, ok := uuids[e.File][e.UUID]; ok {
			e.fragment = j
		} else {
			uuids[e.File][e.UUID] = i
		}
		s.kindOf(e)
	}
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Type == TypeAssistant && e.fragment < 0 && e.File == 0 {
			for _, p := range s.parts(i) {
				if fc := jscan.ObjectMember(p, "functionCall"); fc != nil {
					if id := jscan.StringMember(fc, "id"); id != "" {
						if _, seen := s.calls[id]; !seen {
							s.calls[id] = call{entry: i, name: jscan.StringMember(fc, "name")}
						}
					}
				}
			}
		}
		if e.Type == TypeSystem && e.Subtype == SubtypeTitle && e.File == 0 {
			s.title = jscan.StringMember(e.Payload, "customTitle")
		}
	}
	for k := range s.Agents {
		if c, ok := s.calls[s.Agents[k].CallID]; ok {
			s.Agents[k].Call = c.entry
		}
	}
	for i := range s.Entries {
		e := &s.Entries[i]
		s.parent[i] = -1
		switch {
		case e.fragment >= 0:
			s.parent[i] = int32(e.fragment)
		case e.HasParent:
			if j, ok := uuids[e.File][e.ParentUUID]; ok {
				s.parent[i] = int32(j)
			} else {
				s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: e.Line, Msg: "parentUuid " + e.ParentUUID + " is not in the file: a root here (Qwen Code's history stops at it)", Warning: true})
			}
		case e.File > 0:
			// A sub-agent's first record hangs under the call that
			// started it.
			s.parent[i] = int32(s.Agents[e.File-1].Call)
		}
	}
	model.BreakCyclesAtEntry(s.parent, func(j, _ int) {
		s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Line: s.Entries[j].Line, Msg: "parentUuid makes a cycle: a root here"})
	})
	s.SetParents(s.parent)
	for i := range s.Entries {
		if s.Entries[i].fragment >= 0 {
			s.fragments = true
		}
	}
	for i := s.main - 1; i >= 0; i-- {
		if conversation(&s.Entries[i]) {
			s.leaf = i
			if f := s.Entries[i].fragment; f >= 0 {
				s.leaf = f
			}
			break
		}
	}
}

// conversation reports whether a record is one Qwen Code's reader walks
// from (isTranscriptConversationRecord): not an artifact record, a
// sources snapshot or a managed session's record.
func conversation(e *Entry) bool {
	if e.Type != TypeSystem {
		return true
	}
	switch e.Subtype {
	case "session_artifact_event", "session_artifact_snapshot", "session_sources_snapshot",
		"managed_session_header_v1", "managed_session_event_v1", "managed_session_commit_v1":
		return false
	}
	return true
}

// kindOf sets what the entry is in the domain's terms.
func (s *Session) kindOf(e *Entry) {
	if e.fragment >= 0 {
		return // EntryOther: its parts are its first entry's
	}
	switch e.Type {
	case TypeUser:
		e.kind, e.role = model.EntryMessage, model.RoleUser
	case TypeAssistant:
		e.kind, e.role = model.EntryMessage, model.RoleAssistant
	case TypeToolResult:
		e.kind, e.role = model.EntryMessage, model.RoleToolResult
	case TypeSystem:
		switch e.Subtype {
		case SubtypeCompression:
			e.kind = model.EntryCompaction
		case SubtypeTitle:
			e.kind = model.EntryTitle
		case SubtypeModel:
			e.kind = model.EntryModelChange
		case SubtypeTelemetry:
			switch telemetryEvent(e.Payload) {
			case "qwen-code.api_error":
				e.kind, e.role = model.EntryMessage, model.RoleAssistant
			case "qwen-code.api_response":
				e.kind = model.EntryUsage
			}
		}
	}
}

// telemetryEvent is a ui_telemetry record's event name.
func telemetryEvent(payload []byte) string {
	return jscan.StringMember(jscan.ObjectMember(payload, "uiEvent"), "event.name")
}

// parts are entry i's message parts, and its fragments' after them (as
// aggregateTranscriptRecordFragments joins them).
func (s *Session) parts(i int) [][]byte {
	var out [][]byte
	add := func(msg []byte) {
		jscan.Items(jscan.ObjectMember(msg, "parts"), func(v []byte) bool {
			out = append(out, v)
			return true
		})
	}
	add(s.Entries[i].Message)
	if s.fragments {
		for _, k := range s.Children(i) {
			if s.Entries[k].fragment == i {
				add(s.Entries[k].Message)
			}
		}
	}
	return out
}

// Tips counts the chat's entries no other entry has as its parent: the
// tree's branches (a sub-agent's transcript is not one).
func (s *Session) Tips() int {
	n := 0
	s.ends(func(int, bool) { n++ }, false)
	return n
}

// BranchEnds are the ends of the paths worth showing: each branch's tip,
// then each sub-agent's last entry.
func (s *Session) BranchEnds() []int {
	var out []int
	s.ends(func(i int, _ bool) { out = append(out, i) }, false)
	s.ends(func(i int, _ bool) { out = append(out, i) }, true)
	return out
}

// ends calls fn with each entry no entry has as its parent, but a
// fragment: the chat's, or the sub-agents'.
func (s *Session) ends(fn func(i int, agent bool), agents bool) {
	for i := range s.Entries {
		e := &s.Entries[i]
		if len(s.Children(i)) > 0 || e.fragment >= 0 || (e.File > 0) != agents {
			continue
		}
		fn(i, agents)
	}
}
