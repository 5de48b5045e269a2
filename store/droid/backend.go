package droid

import "skein/store"

// FormatDroid is the format's name in the list and the indexes.
const FormatDroid store.Format = Format

// backend is Droid's sessions for the store, read-only: Droid appends to
// them while it runs; a write imports the session first (store/convert
// reads it). Each session is read whole (Open, ListInfo) with its settings
// file; its id is IDOf's.
var backend = &store.ReadOnlyFile[*Session]{
	ReadOnly: store.ReadOnly{
		Name:  FormatDroid,
		Words: store.Wording{Agent: "Factory Droid", Kind: "a Factory Droid session", Folders: "~/.factory/sessions, or $FACTORY_HOME_OVERRIDE/.factory/sessions"},
		// A session in Droid's folder: <uuid>.jsonl in sessions/<project>/.
		ClaimsPath: IsSessionPath,
		// A session_start or message record of Droid's.
		DetectLine: func(line []byte, _ bool) bool { return IsRecord(line) },
		RootsOf:    store.RootFrom(SessionsDir),
		ResumeCmd:  resume,
		// Its settings file, whose totals change each turn.
		CompanionsOf: func(path string) []string { return []string{SettingsPath(path)} },
	},
	WholeFile: store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession, ID: (*Session).IDOf},
}

func init() { store.Register(backend) }

// resume is Resume: droid --resume <id> goes on with a session (in its
// project's folder, which the TUI runs it in).
func resume(path string) (string, []string) {
	id := ""
	if s, err := Open(path); err == nil {
		id = s.IDOf(path)
	}
	if id == "" {
		id = (&Session{}).IDOf(path)
	}
	return "droid", []string{"--resume", id}
}
