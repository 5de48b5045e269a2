package codex

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
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
func Open(path string) (*Session, error) {
	data, err := readRegular(path)
	if err != nil {
		return nil, err
	}
	s, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

func readRegular(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	// Codex appends while we read: what is read is a prefix of the file,
	// and a last line cut off is reported as partial.
	data := make([]byte, 0, fi.Size()+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}
