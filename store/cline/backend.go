package cline

import (
	"os"
	"path/filepath"
	"strings"

	"skein/model"
	"skein/store"
)

// backend is Cline's sessions for the store, read-only: Cline rewrites
// its files while it runs, without a lock. Each session is read whole
// (Open, ListInfo); its id is IDOf's.
type backend struct{ *store.WholeFile[*Session] }

func init() {
	store.Register(backend{&store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession, ID: (*Session).IDOf}})
}

func (backend) Format() store.Format { return Format }
func (backend) Wording() store.Wording {
	return store.Wording{Agent: "Cline", Kind: "a Cline session", Folders: "~/.cline/data/sessions (or $CLINE_SESSION_DATA_DIR, $CLINE_DATA_DIR/sessions, $CLINE_DIR/data/sessions), and the VS Code extension's ~/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks"}
}

// ImportFormat: a write imports the session first (store/convert reads it).
func (backend) ImportFormat() string { return "cline" }

// Claims a session file by its name: <id>/<id>.messages.json, or a task's
// api_conversation_history.json; and a sub-agent's messages beside a
// lead's (a part of its session: PartOf).
func (backend) Claims(path string) bool {
	return IsSessionFile(path) || strings.HasSuffix(path, MessagesSuffix) && partOf(path) != ""
}

// SessionFile: Discover finds a lead's messages file and a task's
// conversation by their names (store.FileNamer); a sub-agent's messages
// are a part, shown with their session.
func (backend) SessionFile(path string) bool { return IsSessionFile(path) }

// Detect: Cline's files are pretty-printed whole-file JSON, whose first
// line is "{" or "[": nothing to tell them by. They are found by name
// (Claims).
func (backend) Detect([]byte, bool) bool { return false }

// Roots are the CLI's sessions folder and the VS Code extension's tasks.
func (backend) Roots(e store.Env) []string {
	return []string{SessionsDir(os.Getenv, e.Home), TasksDir(e.Home)}
}

// Resume: cline --id <sessionId> goes on with a CLI session (in its
// project's folder, which the TUI runs it in). The extension's tasks are
// resumed from VS Code; its id is given all the same.
func (backend) Resume(path string) (string, []string) {
	id := strings.TrimSuffix(filepath.Base(path), MessagesSuffix)
	if s, err := Open(path); err == nil {
		id = s.IDOf(path)
	}
	return "cline", []string{"--id", id}
}

// A session folder's other files (the manifest, sub-agents' messages, a
// compaction's file, a task's ui_messages.json and metadata) are parts of
// its session, shown with it.
func (backend) PartName(base string) bool { return IsPartName(base) }
func (backend) PartOf(path string) error {
	if partOf(path) != "" {
		return &store.PartOfSession{Reason: "part of a Cline session, shown with it"}
	}
	return nil
}

// CompanionFiles are what a memo of the session at path stamps beside it:
// the manifest and the sub-agents' messages.
func (backend) CompanionFiles(path string) []string {
	if filepath.Base(path) == ExtensionFile {
		return nil
	}
	dir := filepath.Dir(path)
	out := []string{dir, filepath.Join(dir, strings.TrimSuffix(filepath.Base(path), MessagesSuffix)+".json")}
	return append(out, agentPaths(path)...)
}

// Check is doctor's reading: what parsing found.
func (backend) Check(path string) ([]model.Diagnostic, store.Format, error) {
	s, err := Open(path)
	if err != nil {
		if ns, ok := store.NotSessionIf(err, ErrNotSession).(*store.NotSession); ok {
			return []model.Diagnostic{{Msg: ns.Error()}}, Format, nil
		}
		return nil, Format, err
	}
	return s.Diagnostics, Format, nil
}
