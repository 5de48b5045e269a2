package qwen

import (
	"os"
	"path/filepath"
	"strings"

	"skein/store"
)

// FormatQwen is the format's name in the list and the indexes.
const FormatQwen store.Format = Format

// backend is Qwen Code's chats for the store, read-only: Qwen Code
// appends to them while it runs, without a lock; a write imports the chat
// first (store/convert reads it). Each chat is read whole (Open,
// ListInfo); its session's id is IDOf's.
var backend = &store.ReadOnlyFile[*Session]{
	ReadOnly: store.ReadOnly{
		Name:  FormatQwen,
		Words: store.Wording{Agent: "Qwen Code", Kind: "a Qwen Code chat", Folders: "~/.qwen/projects, or $QWEN_RUNTIME_DIR/projects, else $QWEN_HOME/projects"},
		// A chat in Qwen Code's folder: <uuid>.jsonl in projects/<project>/chats/.
		ClaimsPath: IsChatPath,
		// A record with a uuid, a sessionId, a type of Qwen Code's and a
		// mark of its own.
		DetectLine: func(line []byte, _ bool) bool { return IsRecord(line) },
		RootsOf:    store.RootFrom(ProjectsDir),
		ResumeCmd:  resume,
		// A sub-agent's transcript belongs to the chat whose call started
		// it, and is shown with it when that chat is there; alone, it is a
		// session of its own (read alone, as Open reads it).
		PartNamed: IsAgentFileName,
		Part: func(path string) bool {
			c := chatOf(path)
			return IsAgentFileName(filepath.Base(path)) && c != "" && store.IsRegularFile(c)
		},
		PartReason:   "a Qwen Code sub-agent's transcript, shown with its session",
		CompanionsOf: companionFiles,
	},
	WholeFile: store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession, ID: (*Session).IDOf},
}

func init() { store.Register(backend) }

// resume is Resume: qwen --resume <sessionId> goes on with a chat (in its
// project's folder, which the TUI runs it in).
func resume(path string) (string, []string) {
	id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if s, err := Open(path); err == nil && s.ID != "" {
		id = s.ID // a sub-agent's transcript resumes its parent's session
	}
	return "qwen", []string{"--resume", id}
}

// companionFiles are what a memo of the chat at path stamps beside it
// (store.Companions): its sub-agents' folder and the files in it, so that
// a transcript that grew, or a new one, makes the chat read again.
func companionFiles(path string) []string {
	if IsAgentFileName(filepath.Base(path)) {
		return nil
	}
	dir := AgentDir(path)
	out := []string{dir}
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}
