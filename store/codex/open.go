package codex

import (
	"path/filepath"

	"skein/internal/readfile"
)

// SessionsDir is where Codex keeps its rollouts: $CODEX_HOME/sessions,
// else ~/.codex/sessions (core/src/config: codex_home, rollout/mod.rs
// SESSIONS_SUBDIR); getenv reads the environment, home is the user's home.
// The rollouts are in YYYY/MM/DD folders under it.
func SessionsDir(getenv func(string) string, home string) string {
	if h := getenv("CODEX_HOME"); h != "" {
		return filepath.Join(h, "sessions")
	}
	return filepath.Join(home, ".codex", "sessions")
}

// Open reads the rollout at path whole (a regular file: a FIFO would
// block, a device never end) into a buffer of its own and parses it.
func Open(path string) (*Session, error) { return readfile.Parse(path, Parse) }
