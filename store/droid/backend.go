package droid

import (
	"os"

	"skein/store"
)

// backend is Droid's sessions for the store, read-only: Droid appends to
// them while it runs. Each session is read whole (Open, ListInfo) with its
// settings file; its id is IDOf's.
type backend struct{ *store.WholeFile[*Session] }

func init() {
	store.Register(backend{&store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession, ID: (*Session).IDOf}})
}

// FormatDroid is the format's name in the list and the indexes.
const FormatDroid store.Format = Format

func (backend) Format() store.Format { return FormatDroid }
func (backend) Wording() store.Wording {
	return store.Wording{Agent: "Factory Droid", Kind: "a Factory Droid session", Folders: "~/.factory/sessions, or $FACTORY_HOME_OVERRIDE/.factory/sessions"}
}

// ImportFormat: a write imports the session first (store/convert reads it).
func (backend) ImportFormat() string { return "droid" }

// Claims a session in Droid's folder: <uuid>.jsonl in sessions/<project>/.
func (backend) Claims(path string) bool { return IsSessionPath(path) }

// Detect: a session_start or message record of Droid's (IsRecord).
func (backend) Detect(line []byte, _ bool) bool { return IsRecord(line) }

// Roots is where Droid keeps its sessions.
func (backend) Roots(e store.Env) []string {
	return []string{SessionsDir(os.Getenv, e.Home, func(p string) string { return e.Expand(p, e.WorkingDirPath) })}
}

// Resume: droid --resume <id> goes on with a session (in its project's
// folder, which the TUI runs it in).
func (backend) Resume(path string) (string, []string) {
	id := ""
	if s, err := Open(path); err == nil {
		id = s.IDOf(path)
	}
	if id == "" {
		id = (&Session{}).IDOf(path)
	}
	return "droid", []string{"--resume", id}
}

// CompanionFiles are what a memo of the session at path stamps beside it
// (store.Companions): its settings file, whose totals change each turn.
func (backend) CompanionFiles(path string) []string { return []string{SettingsPath(path)} }
