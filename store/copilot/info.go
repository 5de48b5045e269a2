package copilot

import (
	"math"
	"path/filepath"

	"skein/internal/jsdate"
	"skein/model"
)

// Info is the session's record in the list. path is the folder's;
// mtimeMs its events file's modification time, the last resort for
// Modified.
//
//   - ID: session.start's sessionId, else workspace.yaml's id, else the
//     folder's name.
//   - Cwd: workspace.yaml's cwd, else session.start's context.cwd.
//   - Name: the last title_changed, else workspace.yaml's name when the
//     user gave it (user_named).
//   - Created: session.start's startTime, else workspace.yaml's
//     created_at, else the first event's time.
//   - Modified: the last event's time that reads, else mtimeMs.
//   - MessageCount: the message events (user, assistant, tool results,
//     system prompts, errors), sub-agents' included.
//   - FirstMessage: the main agent's first user message as typed;
//     "(no messages)" when there is none.
//   - Model: the model of the main agent's last assistant message, else
//     the model session.start or the last resume selected.
func (s *Session) Info(path string, mtimeMs float64) model.SessionInfo {
	info := model.SessionInfo{Path: path, Format: Format, ID: s.sessionID(), Cwd: s.cwd(), Name: s.Name(),
		Entries: len(s.Events), Branches: 1, FirstMessage: model.NoMessages}
	if info.ID == "" {
		info.ID = filepath.Base(path)
	}
	info.Created = math.NaN()
	if i := s.first(TypeStart); i >= 0 {
		info.Created = jsdate.Parse(str(s.Events[i].Data, "startTime"))
	}
	if math.IsNaN(info.Created) {
		info.Created = jsdate.Parse(s.Workspace.CreatedAt)
	}
	modified := math.Inf(-1)
	haveFirst := false
	for i := range s.Events {
		e := &s.Events[i]
		t := jsdate.Parse(e.Timestamp)
		if math.IsNaN(info.Created) && !math.IsNaN(t) {
			info.Created = t
		}
		if t > modified {
			modified = t
		}
		if e.kind == model.EntryMessage {
			info.MessageCount++
		}
		switch {
		case e.AgentID != "":
		case e.Type == TypeUser && !haveFirst:
			if c := str(e.Data, "content"); c != "" {
				info.FirstMessage, haveFirst = c, true
			}
		case e.Type == TypeAssistant:
			if m := str(e.Data, "model"); m != "" {
				info.Model = m
			}
		case (e.Type == TypeStart || e.Type == TypeResume) && info.Model == "":
			info.Model = str(e.Data, "selectedModel")
		}
	}
	if math.IsInf(modified, -1) {
		modified = mtimeMs
	}
	info.Modified = modified
	return info
}

// first is the index of the first main-agent event of type t, -1 for none.
func (s *Session) first(t string) int {
	for i := range s.Events {
		if s.Events[i].Type == t && s.Events[i].AgentID == "" {
			return i
		}
	}
	return -1
}

// sessionID is session.start's sessionId, else workspace.yaml's id.
func (s *Session) sessionID() string {
	if i := s.first(TypeStart); i >= 0 {
		if id := str(s.Events[i].Data, "sessionId"); id != "" {
			return id
		}
	}
	return s.Workspace.ID
}

// cwd is workspace.yaml's cwd, else session.start's context.cwd.
func (s *Session) cwd() string {
	if s.Workspace.Cwd != "" {
		return s.Workspace.Cwd
	}
	if i := s.first(TypeStart); i >= 0 {
		if c := str(member(s.Events[i].Data, "context"), "cwd"); c != "" {
			return c
		}
	}
	return ""
}
