package gemini

import (
	"os"
	"path/filepath"
	"strings"

	"skein/internal/readfile"
	"skein/store"
)

// TmpDir is where Gemini CLI keeps its projects' chats: ~/.gemini/tmp,
// the home being $GEMINI_CLI_HOME when it is set.
func TmpDir(getenv func(string) string, home string) string {
	return store.EnvDir(getenv, nil, "GEMINI_CLI_HOME", home, ".gemini", "tmp")
}

// Open reads a chat file, with the project's folder from the
// .project_root beside its chats/ folder, and, for a sub-agent's file in
// chats/<parent id>/, its parent's id.
func Open(path string) (*Session, error) {
	s, err := readfile.Parse(path, Parse)
	if err != nil {
		return nil, err
	}
	s.path = path
	dir := filepath.Dir(path)
	if filepath.Base(dir) != "chats" {
		s.parentID = filepath.Base(dir)
		dir = filepath.Dir(dir)
	}
	if filepath.Base(dir) == "chats" {
		if b, err := os.ReadFile(filepath.Join(filepath.Dir(dir), ".project_root")); err == nil {
			s.projectRoot = strings.TrimSpace(string(b))
		}
	}
	return s, nil
}

// IsChatFileName reports whether a file is named as Gemini CLI names a
// session's chat file (session-<time>-<id8>.jsonl, or .json before 0.30).
func IsChatFileName(name string) bool {
	return strings.HasPrefix(name, "session-") && (strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".json"))
}
