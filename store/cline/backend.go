package cline

import (
	"os"
	"path/filepath"
	"strings"

	"skein/model"
	"skein/store"
)

// backend is Cline's sessions for the store, read-only: Cline rewrites
// its files while it runs, without a lock; a write imports the session
// first (store/convert reads it). Each session is read whole (Open,
// ListInfo); its id is IDOf's.
var backend = named{&store.ReadOnlyFile[*Session]{
	ReadOnly: store.ReadOnly{
		Name:  Format,
		Words: store.Wording{Agent: "Cline", Kind: "a Cline session", Folders: "~/.cline/data/sessions (or $CLINE_SESSION_DATA_DIR, $CLINE_DATA_DIR/sessions, $CLINE_DIR/data/sessions), and the VS Code extension's ~/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks"},
		// A session file by its name: <id>/<id>.messages.json, or a task's
		// api_conversation_history.json; and a sub-agent's messages beside
		// a lead's (a part of its session: PartOf).
		ClaimsPath: func(path string) bool {
			return IsSessionFile(path) || strings.HasSuffix(path, MessagesSuffix) && partOf(path) != ""
		},
		// No DetectLine: Cline's files are pretty-printed whole-file JSON,
		// whose first line is "{" or "[": nothing to tell them by. They are
		// found by name (ClaimsPath).
		//
		// The CLI's sessions folder and the VS Code extension's tasks.
		RootsOf: func(e store.Env) []string {
			return []string{SessionsDir(os.Getenv, e.Home), TasksDir(e.Home)}
		},
		ResumeCmd: resume,
		// A session folder's other files (the manifest, sub-agents'
		// messages, a compaction's file, a task's ui_messages.json and
		// metadata) are parts of its session, shown with it.
		PartNamed:    IsPartName,
		Part:         func(path string) bool { return partOf(path) != "" },
		PartReason:   "part of a Cline session, shown with it",
		CompanionsOf: companionFiles,
	},
	WholeFile: store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession, ID: (*Session).IDOf},
}}

// named is the backend, which names its session files (store.FileNamer)
// and reads them as doctor does (store.Checker).
type named struct{ *store.ReadOnlyFile[*Session] }

func init() { store.Register(backend) }

// SessionFile: Discover finds a lead's messages file and a task's
// conversation by their names (store.FileNamer); a sub-agent's messages
// are a part, shown with their session.
func (named) SessionFile(path string) bool { return IsSessionFile(path) }

// resume is Resume: cline --id <sessionId> goes on with a CLI session (in
// its project's folder, which the TUI runs it in). The extension's tasks
// are resumed from VS Code; its id is given all the same.
func resume(path string) (string, []string) {
	id := strings.TrimSuffix(filepath.Base(path), MessagesSuffix)
	if s, err := Open(path); err == nil {
		id = s.IDOf(path)
	}
	return "cline", []string{"--id", id}
}

// companionFiles are what a memo of the session at path stamps beside it:
// the manifest and the sub-agents' messages.
func companionFiles(path string) []string {
	if filepath.Base(path) == ExtensionFile {
		return nil
	}
	dir := filepath.Dir(path)
	out := []string{dir, filepath.Join(dir, strings.TrimSuffix(filepath.Base(path), MessagesSuffix)+".json")}
	return append(out, agentPaths(path)...)
}

// Check is doctor's reading: what parsing found.
func (named) Check(path string) ([]model.Diagnostic, store.Format, error) {
	s, err := Open(path)
	if err != nil {
		if ns, ok := store.NotSessionIf(err, ErrNotSession).(*store.NotSession); ok {
			return []model.Diagnostic{{Msg: ns.Error()}}, Format, nil
		}
		return nil, Format, err
	}
	return s.Diagnostics, Format, nil
}
