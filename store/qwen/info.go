package qwen

import (
	"path/filepath"
	"strings"

	"skein/internal/jsdate"
	"skein/model"
)

// Info is the session's record in the list. path is the file's; mtimeMs
// its modification time, the last resort for Modified.
//
//   - ID: IDOf.
//   - Cwd: the first record's cwd that is not "".
//   - Name: the last custom_title's customTitle ("" for none).
//   - Created, Modified: the first and the latest time of any record; the
//     file's time when none reads.
//   - MessageCount: the message entries (a tool_result record is one).
//   - FirstMessage: the first user record's text, "(no messages)" for none.
//   - Entries: every record read; Branches: the tips of the tree (a
//     rewind leaves one behind).
//   - Model: the last assistant record's model.
func (s *Session) Info(path string, mtimeMs float64) model.SessionInfo {
	info := model.SessionInfo{Path: path, Format: Format, ID: s.IDOf(path), Cwd: s.cwd(), Name: s.title,
		Entries: len(s.Entries), Branches: s.Tips()}
	var span model.TimeSpan
	first := ""
	for i := range s.Entries {
		e := &s.Entries[i]
		span.Add(jsdate.Parse(e.Timestamp))
		if e.kind != model.EntryMessage {
			continue
		}
		info.MessageCount++
		if first == "" && e.Type == TypeUser {
			msg := s.Message(model.ContextMessage{Entry: i})
			first = strings.TrimSpace(msg.Text(" "))
		}
		if e.Type == TypeAssistant && e.Model != "" {
			info.Model = e.Model
		}
	}
	info.SetFirstMessage(first)
	span.Set(&info, mtimeMs)
	return info
}

// IDOf is the id of the session whose file is at path: the first
// record's sessionId (Qwen Code names the file <sessionId>.jsonl), but a
// sub-agent's transcript's name less .jsonl (agent-<agentId>), since its
// records carry its parent's sessionId; the name when there is no id.
func (s *Session) IDOf(path string) string {
	base := filepath.Base(path)
	if s.ID != "" && !IsAgentFileName(base) {
		return s.ID
	}
	return strings.TrimSuffix(base, ".jsonl")
}

// cwd is the first record's cwd that is not "".
func (s *Session) cwd() string {
	for i := range s.Entries {
		if c := s.Entries[i].Cwd; c != "" {
			return c
		}
	}
	return ""
}
