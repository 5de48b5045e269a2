package qwen

import (
	"os"
	"path/filepath"
	"strings"

	"skein/store"
)

// backend is Qwen Code's chats for the store, read-only: Qwen Code
// appends to them while it runs, without a lock. Each chat is read whole
// (Open, ListInfo); its session's id is IDOf's.
type backend struct{ *store.WholeFile[*Session] }

func init() {
	store.Register(backend{&store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession, ID: (*Session).IDOf}})
}

// FormatQwen is the format's name in the list and the indexes.
const FormatQwen store.Format = Format

func (backend) Format() store.Format { return FormatQwen }
func (backend) Wording() store.Wording {
	return store.Wording{Agent: "Qwen Code", Kind: "a Qwen Code chat", Folders: "~/.qwen/projects, or $QWEN_RUNTIME_DIR/projects, else $QWEN_HOME/projects"}
}

// ImportFormat: a write imports the chat first (store/convert reads it).
func (backend) ImportFormat() string { return "qwen" }

// Claims a chat in Qwen Code's folder: <uuid>.jsonl in projects/<project>/chats/.
func (backend) Claims(path string) bool { return IsChatPath(path) }

// Detect: a record with a uuid, a sessionId, a type of Qwen Code's and a
// mark of its own (IsRecord).
func (backend) Detect(line []byte, _ bool) bool { return IsRecord(line) }

// Roots is where Qwen Code keeps its chats: $QWEN_RUNTIME_DIR/projects,
// else $QWEN_HOME/projects, else ~/.qwen/projects.
func (backend) Roots(e store.Env) []string {
	return []string{ProjectsDir(os.Getenv, e.Home, func(p string) string { return e.Expand(p, e.WorkingDirPath) })}
}

// Resume: qwen --resume <sessionId> goes on with a chat (in its project's
// folder, which the TUI runs it in).
func (backend) Resume(path string) (string, []string) {
	id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if s, err := Open(path); err == nil && s.ID != "" {
		id = s.ID // a sub-agent's transcript resumes its parent's session
	}
	return "qwen", []string{"--resume", id}
}

// A sub-agent's transcript belongs to the chat whose call started it, and
// is shown with it when that chat is there; alone, it is a session of its
// own (read alone, as Open reads it).
func (backend) PartName(base string) bool { return IsAgentFileName(base) }
func (backend) PartOf(path string) error {
	if c := chatOf(path); IsAgentFileName(filepath.Base(path)) && c != "" && isRegularFile(c) {
		return &store.PartOfSession{Reason: "a Qwen Code sub-agent's transcript, shown with its session"}
	}
	return nil
}

func isRegularFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// CompanionFiles are what a memo of the chat at path stamps beside it
// (store.Companions): its sub-agents' folder and the files in it, so that
// a transcript that grew, or a new one, makes the chat read again.
func (backend) CompanionFiles(path string) []string {
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
