package cline

import (
	"math"
	"path/filepath"
	"strings"
	"time"

	"skein/internal/jsdate"
	"skein/model"
)

func msToISO(ms float64) string {
	if math.IsNaN(ms) || math.IsInf(ms, 0) || math.Abs(ms) > 8.64e15 {
		return ""
	}
	return time.UnixMilli(int64(ms)).UTC().Format("2006-01-02T15:04:05.000Z")
}

// sessionID is the messages file's sessionId, else the manifest's.
func (s *Session) sessionID() string {
	if s.File.SessionID != "" {
		return s.File.SessionID
	}
	if s.Manifest != nil {
		return s.Manifest.SessionID
	}
	return ""
}

// cwd is the manifest's cwd, else its workspace root.
func (s *Session) cwd() string {
	if m := s.Manifest; m != nil {
		if m.Cwd != "" {
			return m.Cwd
		}
		return m.WorkspaceRoot
	}
	return ""
}

// IDOf is the session's id, else the name of its file's folder (a CLI
// session's and an extension task's folder are named by their id).
func (s *Session) IDOf(path string) string {
	if id := s.sessionID(); id != "" {
		return id
	}
	return filepath.Base(filepath.Dir(path))
}

// Info is the session's record in the list.
//
//   - ID: the messages file's sessionId, else the manifest's, else the
//     folder's name.
//   - Cwd: the manifest's cwd (the extension's tasks record none).
//   - Name: the manifest's title when it is not the first prompt.
//   - Created: the manifest's started_at, else the first message's ts.
//   - Modified: the last message's ts, else updated_at, else mtimeMs.
//   - FirstMessage: the lead's first user text, unwrapped.
//   - Model: the model of the lead's last reply, else the manifest's.
func (s *Session) Info(path string, mtimeMs float64) model.SessionInfo {
	info := model.SessionInfo{Path: path, Format: Format, ID: s.IDOf(path), Cwd: s.cwd(), Name: s.Name(),
		Entries: len(s.Entries), Branches: 1, FirstMessage: model.NoMessages, Created: math.NaN(), Modified: math.Inf(-1)}
	if s.Manifest != nil {
		info.Created = jsdate.Parse(s.Manifest.StartedAt)
		info.Model = s.Manifest.Model
	}
	first := false
	for i := range s.Entries {
		e := &s.Entries[i]
		info.MessageCount++
		if e.Ts != nil {
			if math.IsNaN(info.Created) {
				info.Created = *e.Ts
			}
			info.Modified = max(info.Modified, *e.Ts)
		}
		if e.File != 0 {
			continue
		}
		if e.Role == "user" && !first {
			if t := UserText(firstText(e.Content)); t != "" {
				info.FirstMessage, first = t, true
			}
		}
		if e.ModelInfo != nil && e.ModelInfo.ID != "" {
			info.Model = e.ModelInfo.ID
		}
	}
	if math.IsInf(info.Modified, -1) {
		info.Modified = jsdate.Parse(s.File.UpdatedAt)
		if math.IsNaN(info.Modified) {
			info.Modified = mtimeMs
		}
	}
	if math.IsNaN(info.Created) {
		info.Created = info.Modified
	}
	if info.ID == "" || info.ID == "." {
		info.ID = strings.TrimSuffix(filepath.Base(path), ".messages.json")
	}
	return info
}
