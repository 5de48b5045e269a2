package cursor

import (
	"os"
	"path/filepath"
	"strings"

	"skein/store"
)

// backend is Cursor's transcripts for the store, read-only: Cursor
// appends to them while it runs. Each is read whole.
type backend struct{ *store.WholeFile[Opened] }

func init() {
	store.Register(backend{&store.WholeFile[Opened]{Reader: Open, NotSession: ErrNotSession,
		ID: func(o Opened, path string) string { return o.IDOf(path) }}})
}

// FormatCursor is the format's name in the list and the indexes.
const FormatCursor store.Format = Format

func (backend) Format() store.Format { return FormatCursor }
func (backend) Wording() store.Wording {
	return store.Wording{Agent: "Cursor", Kind: "a Cursor agent transcript", Folders: "~/.cursor/projects, or $CURSOR_CONFIG_DIR/projects"}
}

// ImportFormat: a write imports the transcript first.
func (backend) ImportFormat() string { return "cursor" }

// Claims a transcript in an agent-transcripts folder.
func (backend) Claims(path string) bool { return IsTranscriptPath(path) }

// Detect: a {role, message} line with no type or uuid, or turn_ended.
func (backend) Detect(line []byte, first bool) bool { return first && IsRecord(line) }

func (backend) Roots(e store.Env) []string {
	return []string{ProjectsDir(os.Getenv, e.Home, func(p string) string { return e.Expand(p, e.WorkingDirPath) })}
}

// Resume: cursor-agent --resume <chat id> (the CLI, run in the project's
// folder); a sub-agent's transcript resumes its session.
func (backend) Resume(path string) (string, []string) {
	if p := ParentOf(path); p != "" {
		path = p
	}
	return "cursor-agent", []string{"--resume", strings.TrimSuffix(filepath.Base(path), ".jsonl")}
}

// A sub-agent's transcript is shown under the call that started it when
// its session is there; alone, it is a session of its own.
func (backend) PartName(base string) bool { return strings.HasSuffix(base, ".jsonl") }
func (backend) PartOf(path string) error {
	if p := ParentOf(path); p != "" {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return &store.PartOfSession{Reason: "a Cursor sub-agent's transcript, shown with its session"}
		}
	}
	return nil
}
