package dhara05

import (
	"fmt"
	"path/filepath"
	"strings"

	"skein/internal/readfile"
	"skein/model"
)

// Open reads the session file at path whole (a regular file: a FIFO would
// block, a device never end) and parses it. It adds a warning when the
// file's name is not its sessionId: Dhara finds a session only at
// <sessionId>.jsonl (session-manager.ts filePath), so it could not resume it.
func Open(path string) (*Session, error) {
	s, err := readfile.Parse(path, Parse)
	if err != nil {
		return nil, err
	}
	if id := s.Meta.SessionID; id != "" && strings.TrimSuffix(filepath.Base(path), ".jsonl") != id {
		s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Warning: true,
			Msg: fmt.Sprintf("the file is not named after its sessionId %q: Dhara cannot load it by that id", id)})
	}
	return s, nil
}
