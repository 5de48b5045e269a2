package store

import (
	"path/filepath"
	"strings"

	"skein/model"
)

// ParsedFile is a session file as its format's reader parsed it whole: its
// list record (mtimeMs is the file's modification time, the last resort
// for Modified) and its session as the domain sees it.
type ParsedFile interface {
	Info(path string, mtimeMs float64) Info
	Domain(info Info) *model.Session
}

// WholeFile is the Open, ListInfo and SessionID of a format whose session
// is one file parsed whole (Claude Code's logs, Codex's rollouts, Dhara
// 0.5's files). A ReadOnlyFile holds one, so that the format says only
// what is its own: its reader, the error the reader wraps for a file that
// is no session of the format, and where a file names its session's id.
type WholeFile[S ParsedFile] struct {
	Reader     func(path string) (S, error)
	NotSession error
	// ID is the session id the file at path names, "" when it names none.
	ID func(s S, path string) string
}

// Read parses the file at path with the format's reader; a file that is no
// session of the format is a *NotSession.
func (w *WholeFile[S]) Read(path string) (S, error) {
	s, err := w.Reader(path)
	return s, NotSessionIf(err, w.NotSession)
}

// Open reads the file, with the list record's fields (its first prompt,
// not the instructions the agent put first) from what is parsed.
func (w *WholeFile[S]) Open(path string) (*model.Session, error) {
	s, err := w.Read(path)
	if err != nil {
		return nil, err
	}
	return s.Domain(s.Info(path, 0)), nil
}

// ListInfo reads the file whole for its list record.
func (w *WholeFile[S]) ListInfo(path string, buf []byte) ([]byte, Info, error) {
	s, err := w.Read(path)
	if err != nil {
		return buf, Info{}, err
	}
	return buf, s.Info(path, ModTimeMs(path)), nil
}

// SessionID is the id the file names, else its name without .jsonl.
func (w *WholeFile[S]) SessionID(path string) (string, error) {
	s, err := w.Read(path)
	if err != nil {
		return "", err
	}
	if id := w.ID(s, path); id != "" {
		return id, nil
	}
	return strings.TrimSuffix(filepath.Base(path), ".jsonl"), nil
}
