package cursor

import (
	"path/filepath"
	"strings"

	"skein/store"
)

// FormatCursor is the format's name in the list and the indexes.
const FormatCursor store.Format = Format

// backend is Cursor's transcripts for the store, read-only: Cursor
// appends to them while it runs; a write imports the transcript first.
// Each is read whole.
var backend = &store.ReadOnlyFile[Opened]{
	ReadOnly: store.ReadOnly{
		Name:  FormatCursor,
		Words: store.Wording{Agent: "Cursor", Kind: "a Cursor agent transcript", Folders: "~/.cursor/projects, or $CURSOR_CONFIG_DIR/projects"},
		// A transcript in an agent-transcripts folder.
		ClaimsPath: IsTranscriptPath,
		// A {role, message} line with no type or uuid, or turn_ended.
		DetectLine: func(line []byte, first bool) bool { return first && IsRecord(line) },
		RootsOf:    store.RootFrom(ProjectsDir),
		ResumeCmd:  resume,
		// A sub-agent's transcript is shown under the call that started it
		// when its session is there; alone, it is a session of its own.
		PartNamed: func(base string) bool { return strings.HasSuffix(base, ".jsonl") },
		Part: func(path string) bool {
			p := ParentOf(path)
			return p != "" && store.IsRegularFile(p)
		},
		PartReason: "a Cursor sub-agent's transcript, shown with its session",
	},
	WholeFile: store.WholeFile[Opened]{Reader: Open, NotSession: ErrNotSession,
		ID: func(o Opened, path string) string { return o.IDOf(path) }},
}

func init() { store.Register(backend) }

// resume is Resume: cursor-agent --resume <chat id> (the CLI, run in the
// project's folder); a sub-agent's transcript resumes its session.
func resume(path string) (string, []string) {
	if p := ParentOf(path); p != "" {
		path = p
	}
	return "cursor-agent", []string{"--resume", strings.TrimSuffix(filepath.Base(path), ".jsonl")}
}
