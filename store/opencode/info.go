package opencode

import (
	"path/filepath"
	"strings"

	"skein/model"
)

// Info is the session's list record: its id, folder, title (none while it
// is OpenCode's placeholder), times, messages, first prompt and latest
// model; a sub-agent's session names its parent's path.
func (s *Session) Info(path string) model.SessionInfo {
	in := model.SessionInfo{Path: path, Format: string(Format), ID: s.Row.ID, Cwd: s.Row.Directory,
		Created: s.Row.Created, Modified: s.Row.Updated, Entries: len(s.Entries), Branches: 1}
	if !placeholderTitle(s.Row.Title) {
		in.Name = s.Row.Title
	}
	if s.Row.ParentID != "" {
		db, _, _ := Split(path)
		in.ParentSession, in.HasParent = db+"#"+s.Row.ParentID, true
		if _, ok := LegacyDataDir(path); ok { // the parent's file, in the same project's folder
			in.ParentSession = filepath.Join(filepath.Dir(path), s.Row.ParentID+".json")
		}
	}
	for i := range s.Entries {
		e := s.Entries[i]
		m := &s.Messages[e.Msg]
		in.MessageCount++
		if e.Part >= 0 {
			continue
		}
		if m.Data.Role == model.RoleUser && in.FirstMessage == "" {
			for _, p := range m.Parts {
				if p.Type == "text" && !p.Synthetic && p.Text != "" {
					in.FirstMessage = p.Text
					break
				}
			}
		}
		if m.Data.Role == model.RoleAssistant && m.Data.ModelID != "" {
			in.Model = m.Data.ModelID
		}
		if m.Updated > in.Modified {
			in.Modified = m.Updated
		}
	}
	if in.FirstMessage == "" {
		in.FirstMessage = "(no messages)"
	}
	return in
}

// placeholderTitle: OpenCode names a new session "New session - <date>"
// (a sub-agent's "Child session - <date>") until its title request
// answers.
func placeholderTitle(t string) bool {
	return t == "" || strings.HasPrefix(t, "New session - ") || strings.HasPrefix(t, "Child session - ")
}
