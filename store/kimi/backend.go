package kimi

import (
	"os"
	"path/filepath"

	"skein/store"
)

// backend is Kimi Code's wire files for the store, read-only: Kimi Code
// appends to them while it runs, without a lock. A session is its main
// agent's wire, read whole with its sub-agents' wires.
type backend struct{ *store.WholeFile[*Session] }

func init() {
	store.Register(backend{&store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession, ID: (*Session).IDOf}})
}

// FormatKimi is the format's name in the list and the indexes.
const FormatKimi store.Format = Format

func (backend) Format() store.Format { return FormatKimi }
func (backend) Wording() store.Wording {
	return store.Wording{Agent: "Kimi Code", Kind: "a Kimi Code session", Folders: "~/.kimi-code/sessions, or $KIMI_CODE_HOME/sessions"}
}

// ImportFormat: a write imports the session first (store/convert reads it).
func (backend) ImportFormat() string { return "kimi" }

// Claims a wire file in Kimi Code's folder.
func (backend) Claims(path string) bool { return IsWirePath(path) }

// Detect: a metadata line with a protocol_version, or a context record
// with an agentId.
func (backend) Detect(line []byte, _ bool) bool { return IsRecord(line) }

// Roots is where Kimi Code keeps its sessions.
func (backend) Roots(e store.Env) []string {
	return []string{SessionsDir(os.Getenv, e.Home, func(p string) string { return e.Expand(p, e.WorkingDirPath) })}
}

// Resume: kimi --session <session_uuid> goes on with a session (in its
// folder, which the TUI runs it in).
func (backend) Resume(path string) (string, []string) {
	id := sessionOf(path)
	if id == "" {
		id = filepath.Base(filepath.Dir(path))
	}
	return "kimi", []string{"--session", id}
}

// A sub-agent's wire belongs to the session whose main wire is beside it,
// and is shown with it when that wire is there.
func (backend) PartName(base string) bool { return base == "wire.jsonl" }
func (backend) PartOf(path string) error {
	if a := agentOf(path); a != "main" && IsWirePath(path) {
		main := filepath.Join(filepath.Dir(filepath.Dir(path)), "main", "wire.jsonl")
		if st, err := os.Stat(main); err == nil && st.Mode().IsRegular() {
			return &store.PartOfSession{Reason: "a Kimi Code sub-agent's wire, shown with its session"}
		}
	}
	return nil
}

// CompanionFiles are the sub-agents' wires, so that a grown one makes the
// session read again.
func (backend) CompanionFiles(path string) []string {
	if agentOf(path) != "main" {
		return nil
	}
	return agentWires(path)
}
