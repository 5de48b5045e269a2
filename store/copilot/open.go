package copilot

import (
	"os"
	"path/filepath"

	"skein/internal/jscan"
	"skein/internal/readfile"
	"skein/store"
)

// StateDir is where Copilot CLI keeps its session folders:
// $COPILOT_HOME/session-state, else ~/.copilot/session-state; getenv
// reads the environment, home is the user's home.
func StateDir(getenv func(string) string, home string) string {
	return store.EnvDir(getenv, nil, "COPILOT_HOME", filepath.Join(home, ".copilot"), "session-state")
}

// IsSession reports whether dir is a Copilot session folder: it holds an
// events.jsonl that is a regular file.
func IsSession(dir string) bool {
	st, err := os.Lstat(filepath.Join(dir, EventsFile))
	return err == nil && st.Mode().IsRegular()
}

// folderOf is the session folder of path: path itself, or the folder of
// an events.jsonl named directly.
func folderOf(path string) string {
	if filepath.Base(path) == EventsFile {
		if store.IsRegularFile(path) {
			return filepath.Dir(path)
		}
	}
	return path
}

// Open reads the session folder at path (or the folder of its
// events.jsonl): the events whole, regular files only, and workspace.yaml
// when it is there.
func Open(path string) (*Session, error) {
	dir := folderOf(path)
	s, err := readfile.Parse(filepath.Join(dir, EventsFile), Parse)
	if err != nil {
		return nil, err
	}
	if data, err := readfile.Regular(filepath.Join(dir, WorkspaceFile)); err == nil && len(data) < 1<<20 {
		s.Workspace = ParseWorkspace(data)
	}
	s.path = dir
	return s, nil
}

// member is the member key of obj, nil when obj is no object.
func member(obj []byte, key string) []byte {
	if len(obj) == 0 || obj[0] != '{' {
		return nil
	}
	return jscan.Member(obj, key)
}
