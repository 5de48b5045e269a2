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
var backend = oneFile{&store.ReadOnlyFile[*Session]{
	ReadOnly: store.ReadOnly{
		Name: store.FormatDhara05, Import: "dhara-jsonl",
		Words:      store.Wording{Agent: "Dhara", Kind: "a Dhara 0.5 session"},
		ClaimsPath: claims,
		// A session file starts with its meta line.
		DetectLine: func(line []byte, first bool) bool {
			return first && store.Members(line, "type")[0].Value == "meta"
		},
		// Dhara's sessions folder, which holds its one-file sessions.
		RootsOf: func(e store.Env) []string { return []string{e.DharaSessionRoot()} },
		// Dhara's --resume loads <sessionId>.jsonl from its folder.
		ResumeCmd: func(path string) (string, []string) {
			return "dhara", []string{"--resume", strings.TrimSuffix(filepath.Base(path), ".jsonl")}
		},
		// A temporary file Dhara writes while it saves is a part of its
		// session.
		PartNamed:  func(base string) bool { return strings.HasPrefix(base, ".") },
		Part:       func(path string) bool { return !IsSessionFileName(filepath.Base(path)) },
		PartReason: "a temporary file Dhara writes while it saves",
	},
	WholeFile: store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession,
		ID: func(s *Session, _ string) string { return s.Meta.SessionID }},
}}

// oneFile is the backend: ReadOnlyFile's, with an Open of its own and the
// text index's reads (textindex.go).
type oneFile struct{ *store.ReadOnlyFile[*Session] }

func init() { store.Register(backend) }

// claims is Claims: a .jsonl file right in a Dhara sessions folder
// (~/.dhara/sessions or $DHARA_HOME/sessions): pi keeps its files a level
// down, in a folder per project.
func claims(path string) bool {
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

// Open gives the session only its path and format, not the list record
// WholeFile's Open computes (the id and cwd come from the meta line).
func (b oneFile) Open(path string) (*model.Session, error) {
	s, err := b.Read(path)
	if err != nil {
		return nil, err
	}
	return s.Domain(model.SessionInfo{Path: path, Format: Format}), nil
}
