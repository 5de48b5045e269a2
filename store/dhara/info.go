package dhara

import (
	"math"
	"path/filepath"
	"strings"

	"skein/internal/jsdate"
	"skein/model"
)

// Info is the session's record in the list (DECISIONS.md 10); mtimeMs is
// the folder's modification time, the last resort for Modified.
func (s *Session) Info(dir string, mtimeMs float64) model.SessionInfo {
	info := model.SessionInfo{Path: dir, Format: "dhara", ID: s.Meta.ID, Cwd: s.Meta.Cwd, Name: s.Meta.Title,
		Entries: len(s.Entries), Branches: len(s.Tree.Branches)}
	if info.ID == "" {
		info.ID = filepath.Base(dir)
	}
	info.Created = jsdate.Parse(s.Meta.CreatedAt)
	modified := math.Inf(-1)
	first := ""
	for i := range s.Entries {
		e := &s.Entries[i]
		switch e.Type {
		case TypeMessage:
			info.MessageCount++
			if t := jsdate.Parse(e.Timestamp); t > modified {
				modified = t
			}
			if first == "" && e.Role == model.RoleUser {
				msg := s.Message(model.ContextMessage{Entry: i})
				var parts []string
				for _, b := range msg.Blocks {
					if b.Type == model.BlockText {
						parts = append(parts, b.Text)
					}
				}
				first = strings.Join(parts, " ")
			}
		case TypeToolResult:
			info.MessageCount++
		}
	}
	info.FirstMessage = first
	if first == "" {
		info.FirstMessage = "(no messages)"
	}
	for _, t := range []string{s.Meta.UpdatedAt, s.Meta.CreatedAt} {
		if !math.IsInf(modified, -1) {
			break
		}
		if ms := jsdate.Parse(t); ms == ms {
			modified = ms
		}
	}
	if math.IsInf(modified, -1) {
		modified = mtimeMs
	}
	info.Modified = modified
	info.Model = s.Meta.Model
	if s.leaf >= 0 {
		for _, i := range s.path(s.leaf) {
			if s.Entries[i].Type == TypeModelChange {
				if m := s.Detail(i).Model; m != "" {
					info.Model = m
				}
			}
		}
	}
	return info
}
