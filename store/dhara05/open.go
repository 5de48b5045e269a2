package dhara05

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"skein/model"
)

// Open reads the session file at path whole (a regular file: a FIFO would
// block, a device never end) and parses it. It adds a warning when the
// file's name is not its sessionId: Dhara finds a session only at
// <sessionId>.jsonl (session-manager.ts filePath), so it could not resume it.
func Open(path string) (*Session, error) {
	data, err := readRegular(path)
	if err != nil {
		return nil, err
	}
	s, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if id := s.Meta.SessionID; id != "" && strings.TrimSuffix(filepath.Base(path), ".jsonl") != id {
		s.Diagnostics = append(s.Diagnostics, model.Diagnostic{Warning: true,
			Msg: fmt.Sprintf("the file is not named after its sessionId %q: Dhara cannot load it by that id", id)})
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
	// Dhara replaces the file by a rename: the open file stays whole.
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
