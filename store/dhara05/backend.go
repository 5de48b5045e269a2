package dhara05

import (
	"os"
	"path/filepath"
	"strings"

	"skein/model"
	"skein/store"
)

// backend is the real Dhara agent's one-file sessions (0.5) for the
// store, which sit in the same folder as the seed's session folders.
// Dhara rewrites the whole file on every save, without a lock: skein only
// reads them. Each file is read whole (Open, ListInfo); its session's id is
// its meta line's sessionId, else its name.
type backend struct{ *store.WholeFile[*Session] }

func init() {
	store.Register(backend{&store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession,
		ID: func(s *Session, _ string) string { return s.Meta.SessionID }}})
}

func (backend) Format() store.Format { return store.FormatDhara05 }
func (backend) Wording() store.Wording {
	return store.Wording{Agent: "Dhara", Kind: "a Dhara 0.5 session"}
}
func (backend) ImportFormat() string { return "dhara-jsonl" }

// Claims a .jsonl file right in a Dhara sessions folder (~/.dhara/sessions
// or $DHARA_HOME/sessions): pi keeps its files a level down, in a folder
// per project.
func (backend) Claims(path string) bool {
	if !strings.HasSuffix(path, ".jsonl") {
		return false
	}
	dir := filepath.Dir(path)
	if filepath.Base(dir) != "sessions" {
		return false
	}
	if filepath.Base(filepath.Dir(dir)) == ".dhara" {
		return true
	}
	home := os.Getenv("DHARA_HOME")
	if home == "" {
		return false
	}
	e := store.OSEnv()
	e.DharaHome = home
	return filepath.Clean(e.DharaSessionRoot()) == filepath.Clean(dir)
}

// Detect: a session file starts with its meta line.
func (backend) Detect(line []byte, first bool) bool {
	return first && store.Members(line, "type")[0].Value == "meta"
}

// Roots is Dhara's sessions folder, which holds its one-file sessions.
func (backend) Roots(e store.Env) []string { return []string{e.DharaSessionRoot()} }

// Open gives the session only its path and format, not the list record
// WholeFile's Open computes (the id and cwd come from the meta line).
func (b backend) Open(path string) (*model.Session, error) {
	s, err := b.Read(path)
	if err != nil {
		return nil, err
	}
	return s.Domain(model.SessionInfo{Path: path, Format: Format}), nil
}

// Resume: Dhara's --resume loads <sessionId>.jsonl from its folder.
func (backend) Resume(path string) (string, []string) {
	return "dhara", []string{"--resume", strings.TrimSuffix(filepath.Base(path), ".jsonl")}
}

// A temporary file Dhara writes while it saves is a part of its session.
func (backend) PartName(base string) bool { return strings.HasPrefix(base, ".") }
func (backend) PartOf(path string) error {
	if !IsSessionFileName(filepath.Base(path)) {
		return &store.PartOfSession{Reason: "a temporary file Dhara writes while it saves"}
	}
	return nil
}
