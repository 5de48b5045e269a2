package dhara05

import (
	"math"
	"path/filepath"
	"strings"

	"skein/internal/jsdate"
	"skein/model"
)

// Info is the session's record in the list. path is the file's; mtimeMs
// its modification time, the last resort for Modified.
//
//   - ID: the meta line's sessionId, else the file name without .jsonl.
//   - Cwd, Created: the meta line's cwd and createdAt.
//   - Name: the meta line's title (Dhara 0.5 writes none: "").
//   - Modified: the latest message's timestamp, else the meta line's
//     updatedAt, else its createdAt, else mtimeMs.
//   - MessageCount: the "entry" lines of Dhara's four roles.
//   - FirstMessage: the first user message's text blocks joined by " ",
//     "(no messages)" when there is none.
//   - Entries: every entry and branch line kept; Branches: the tips of the
//     tree (entries with no children).
//   - Model: the model id of the last assistant on the path to the leaf
//     that names one, else the meta line's.
func (s *Session) Info(path string, mtimeMs float64) model.SessionInfo {
	info := model.SessionInfo{Path: path, Format: Format, ID: s.Meta.SessionID, Cwd: s.Meta.Cwd, Name: s.Meta.Title,
		Entries: len(s.Entries), Branches: s.Tips()}
	if info.ID == "" {
		info.ID = strings.TrimSuffix(filepath.Base(path), ".jsonl")
	}
	info.Created = jsdate.Parse(s.Meta.CreatedAt)
	modified := math.Inf(-1)
	first, haveFirst := "", false
	for i := range s.Entries {
		e := &s.Entries[i]
		if !e.isCounted() {
			continue
		}
		info.MessageCount++
		if t := jsdate.Parse(e.Timestamp); t > modified {
			modified = t
		}
		if !haveFirst && e.role == model.RoleUser {
			msg := s.Message(model.ContextMessage{Entry: i})
			first = msg.Text(" ")
			haveFirst = first != ""
		}
	}
	info.SetFirstMessage(first)
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
	info.Model = s.Meta.ModelID
	if s.leaf >= 0 {
		for _, i := range s.Path(s.leaf) {
			if s.Entries[i].role == model.RoleAssistant {
				if m := s.MessageHead(model.ContextMessage{Entry: i}).Model; m != "" {
					info.Model = m
				}
			}
		}
	}
	return info
}
