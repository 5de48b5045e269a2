package droid

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"skein/internal/readfile"
	"skein/store"
)

// SessionsDir is where Droid keeps its sessions: <home>/.factory/sessions,
// home being $FACTORY_HOME_OVERRIDE when set, else the user's home.
// getenv reads the environment; a relative or ~ path is expanded by
// expand. A session is <cwd with each "/" as ->/<id>.jsonl under it.
func SessionsDir(getenv func(string) string, home string, expand func(string) string) string {
	return store.EnvDir(getenv, expand, "FACTORY_HOME_OVERRIDE", home, ".factory", "sessions")
}

// SettingsPath is the settings file of the session at path: <id>.settings.json beside it.
func SettingsPath(path string) string {
	return strings.TrimSuffix(path, ".jsonl") + ".settings.json"
}

// Open reads the session at path whole (a regular file: a FIFO would
// block, a device never end) and its settings file when there is one, and
// parses them.
func Open(path string) (*Session, error) {
	data, err := readfile.Regular(path)
	if err != nil {
		return nil, err
	}
	settings, _ := readfile.Regular(SettingsPath(path))
	if len(settings) > 4<<20 {
		settings = nil
	}
	s, err := ParseFiles(data, settings)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.path = path
	return s, nil
}

// sessionFile matches a session's name: <uuid>.jsonl.
var sessionFile = regexp.MustCompile(`^[0-9a-fA-F-]{32,36}\.jsonl$`)

// IsSessionPath reports whether path is where Droid writes a session:
// .../.factory/sessions/<project>/<uuid>.jsonl, or directly in sessions/
// (older Droids).
func IsSessionPath(path string) bool {
	path = filepath.Clean(path)
	dir, name := filepath.Dir(path), filepath.Base(path)
	if !sessionFile.MatchString(name) {
		return false
	}
	if filepath.Base(dir) == "sessions" {
		return filepath.Base(filepath.Dir(dir)) == ".factory"
	}
	return filepath.Base(filepath.Dir(dir)) == "sessions" && filepath.Base(filepath.Dir(filepath.Dir(dir))) == ".factory"
}
