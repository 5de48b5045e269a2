package kimi

import (
	"path/filepath"

	"skein/store"
)

// FormatKimi is the format's name in the list and the indexes.
const FormatKimi store.Format = Format

// backend is Kimi Code's wire files for the store, read-only: Kimi Code
// appends to them while it runs, without a lock; a write imports the
// session first (store/convert reads it). A session is its main agent's
// wire, read whole with its sub-agents' wires.
var backend = &store.ReadOnlyFile[*Session]{
	ReadOnly: store.ReadOnly{
		Name:  FormatKimi,
		Words: store.Wording{Agent: "Kimi Code", Kind: "a Kimi Code session", Folders: "~/.kimi-code/sessions, or $KIMI_CODE_HOME/sessions"},
		// A wire file in Kimi Code's folder.
		ClaimsPath: IsWirePath,
		// A metadata line with a protocol_version, or a context record with
		// an agentId.
		DetectLine: func(line []byte, _ bool) bool { return IsRecord(line) },
		RootsOf:    store.RootFrom(SessionsDir),
		ResumeCmd:  resume,
		// A sub-agent's wire belongs to the session whose main wire is
		// beside it, and is shown with it when that wire is there.
		PartNamed:  func(base string) bool { return base == "wire.jsonl" },
		Part:       mainThere,
		PartReason: "a Kimi Code sub-agent's wire, shown with its session",
		// The sub-agents' wires, so that a grown one makes the session read
		// again.
		CompanionsOf: func(path string) []string {
			if agentOf(path) != "main" {
				return nil
			}
			return agentWires(path)
		},
	},
	WholeFile: store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession, ID: (*Session).IDOf},
}

func init() { store.Register(backend) }

// resume is Resume: kimi --session <session_uuid> goes on with a session
// (in its folder, which the TUI runs it in).
func resume(path string) (string, []string) {
	id := sessionOf(path)
	if id == "" {
		id = filepath.Base(filepath.Dir(path))
	}
	return "kimi", []string{"--session", id}
}

// mainThere reports whether the wire at path is a sub-agent's whose
// session's main wire is beside it.
func mainThere(path string) bool {
	if a := agentOf(path); a != "main" && IsWirePath(path) {
		return store.IsRegularFile(filepath.Join(filepath.Dir(filepath.Dir(path)), "main", "wire.jsonl"))
	}
	return false
}
