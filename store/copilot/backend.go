package copilot

import (
	"os"
	"path/filepath"
	"strings"

	"skein/model"
	"skein/store"
)

// backend is Copilot CLI's session folders for the store, read-only:
// Copilot appends to events.jsonl while it runs, without a lock; a write
// imports first. A session is a folder (Folders); its events are read
// whole.
var backend = folders{&store.ReadOnly{
	Name:  Format,
	Words: store.Wording{Agent: "Copilot CLI", Kind: "a Copilot CLI session folder", Folders: "~/.copilot/session-state, or $COPILOT_HOME/session-state"},
	// A folder that holds an events.jsonl (one stat), or an events.jsonl
	// in a session-state folder's session folder.
	ClaimsPath: func(path string) bool {
		if filepath.Base(path) == EventsFile {
			return filepath.Base(filepath.Dir(filepath.Dir(path))) == "session-state"
		}
		return IsSession(path)
	},
	DetectLine: detect,
	// $COPILOT_HOME/session-state, else ~/.copilot/session-state.
	RootsOf:   func(e store.Env) []string { return []string{StateDir(os.Getenv, e.Home)} },
	ResumeCmd: resume,
}}

// folders is the backend, whose sessions are folders (store.Folders) it
// reads itself.
type folders struct{ *store.ReadOnly }

func init() { store.Register(backend) }

// folderFiles are the files of a session folder that live follow watches
// and whose stats make the session's change token: Copilot appends to
// events.jsonl, and rewrites workspace.yaml (its name, its times).
var folderFiles = []string{EventsFile, WorkspaceFile}

// detect is Detect: an event line {type, data, id, parentId, timestamp}
// whose type is dotted as Copilot's are ("user.message"); the first line
// of a session is its session.start.
func detect(line []byte, first bool) bool {
	m := store.Members(line, "type", "data", "id", "parentId", "timestamp")
	if !m[0].String || !m[1].Present || !m[2].String || !m[3].Present || !m[4].String {
		return false
	}
	if first {
		return m[0].Value == TypeStart
	}
	return strings.Contains(m[0].Value, ".")
}

func (folders) IsSessionFolder(dir string) bool { return IsSession(dir) }
func (folders) FolderFiles() []string           { return folderFiles }

// resume is Resume: copilot --resume=<id> goes on with a session, in the
// folder the TUI runs it in (the session's cwd).
func resume(path string) (string, []string) {
	id := filepath.Base(folderOf(path))
	if s, err := Open(path); err == nil && s.sessionID() != "" {
		id = s.sessionID()
	}
	return "copilot", []string{"--resume=" + id}
}

func (folders) Open(path string) (*model.Session, error) {
	s, err := read(path)
	if err != nil {
		return nil, err
	}
	return s.Domain(s.Info(folderOf(path), 0)), nil
}

// ListInfo reads the events whole; Modified falls back on the events
// file's modification time (a folder's does not move when a file in it
// grows).
func (folders) ListInfo(path string, buf []byte) ([]byte, store.Info, error) {
	s, err := read(path)
	if err != nil {
		return buf, store.Info{}, err
	}
	dir := folderOf(path)
	return buf, s.Info(dir, store.ModTimeMs(filepath.Join(dir, EventsFile))), nil
}

// SessionID is session.start's sessionId, else workspace.yaml's id, else
// the folder's name.
func (folders) SessionID(path string) (string, error) {
	s, err := read(path)
	if err != nil {
		return "", err
	}
	if id := s.sessionID(); id != "" {
		return id, nil
	}
	return filepath.Base(folderOf(path)), nil
}

// Check is doctor's reading: what parsing found.
func (folders) Check(path string) ([]model.Diagnostic, store.Format, error) {
	s, err := read(path)
	if err != nil {
		if ns, ok := err.(*store.NotSession); ok {
			return []model.Diagnostic{{File: EventsFile, Msg: ns.Error()}}, Format, nil
		}
		return nil, Format, err
	}
	return s.Diagnostics, Format, nil
}

// read opens the session at path, a folder that is no session of the
// format being a *store.NotSession.
func read(path string) (*Session, error) {
	s, err := Open(path)
	return s, store.NotSessionIf(err, ErrNotSession)
}
