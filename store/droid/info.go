package droid

import (
	"path/filepath"
	"strings"

	"skein/internal/jsdate"
	"skein/model"
)

// Info is the session's record in the list. path is the file's; mtimeMs
// its modification time, the last resort for Modified.
//
//   - ID: IDOf. Cwd: session_start's cwd. Name: session_start's title
//     (Droid's: the first prompt, or one the user set).
//   - Created, Modified: the first and the latest time of any record; the
//     file's time when none reads.
//   - MessageCount: the message records; FirstMessage: the first user
//     message's text but the context Droid injects (an id "context-..."),
//     "(no messages)" for none.
//   - Model: the settings file's model.
func (s *Session) Info(path string, mtimeMs float64) model.SessionInfo {
	info := model.SessionInfo{Path: path, Format: Format, ID: s.IDOf(path), Cwd: s.Cwd, Name: s.Title,
		Entries: len(s.Entries), Branches: s.Tips(), Model: s.Model}
	var span model.TimeSpan
	first := ""
	for i := range s.Entries {
		e := &s.Entries[i]
		span.Add(jsdate.Parse(e.Timestamp))
		if e.kind != model.EntryMessage {
			continue
		}
		info.MessageCount++
		if first == "" && e.role == model.RoleUser && !strings.HasPrefix(e.ID, "context-") {
			msg := s.Message(model.ContextMessage{Entry: i})
			first = strings.TrimSpace(msg.Text(" "))
		}
	}
	info.SetFirstMessage(first)
	span.Set(&info, mtimeMs)
	return info
}

// IDOf is the id of the session whose file is at path: session_start's id
// (Droid names the file <id>.jsonl), else the name less .jsonl.
func (s *Session) IDOf(path string) string {
	if s.ID != "" {
		return s.ID
	}
	return strings.TrimSuffix(filepath.Base(path), ".jsonl")
}
