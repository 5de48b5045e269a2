package qwen

import (
	"path/filepath"
	"regexp"
	"strings"

	"skein/internal/readfile"
)

// ProjectsDir is where Qwen Code keeps its projects' chats (Storage's
// getRuntimeBaseDir + "projects"): $QWEN_RUNTIME_DIR, else $QWEN_HOME,
// else ~/.qwen, with "projects" under it (a runtime dir given in
// settings.json, advanced.runtimeOutputDir, is not read). getenv reads
// the environment, home is the user's home; a relative or ~ path is
// expanded by expand. A project's chats are in <cwd with every
// character but a letter or a digit as ->/chats/ under it.
func ProjectsDir(getenv func(string) string, home string, expand func(string) string) string {
	for _, v := range []string{"QWEN_RUNTIME_DIR", "QWEN_HOME"} {
		if d := getenv(v); d != "" {
			return filepath.Join(expand(d), "projects")
		}
	}
	return filepath.Join(home, ".qwen", "projects")
}

// Open reads the chat at path whole (a regular file: a FIFO would block,
// a device never end) and parses it.
func Open(path string) (*Session, error) {
	s, err := readfile.Parse(path, Parse)
	if err == nil {
		s.path = path
	}
	return s, err
}

// sessionFile matches the chats Qwen Code lists (SESSION_FILE_PATTERN).
var sessionFile = regexp.MustCompile(`^[0-9a-fA-F-]{32,36}\.jsonl$`)

// IsChatPath reports whether path is where Qwen Code writes a chat:
// .../projects/<project>/chats/<uuid>.jsonl.
func IsChatPath(path string) bool {
	dir, name := filepath.Split(filepath.ToSlash(path))
	return sessionFile.MatchString(name) && strings.HasSuffix(dir, "/chats/") &&
		filepath.Base(filepath.Dir(filepath.Dir(filepath.Clean(dir)))) == "projects"
}
