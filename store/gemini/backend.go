package gemini

import (
	"os"
	"path/filepath"
	"strings"

	"skein/store"
)

// backend is Gemini CLI's chat files for the store, read-only: Gemini CLI
// appends to them while it runs, without a lock. Each file is read whole.
type backend struct{ *store.WholeFile[*Session] }

func init() {
	store.Register(backend{&store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession,
		ID: func(s *Session, _ string) string { return s.Meta.SessionID }}})
}

func (backend) Format() store.Format { return Format }
func (backend) Wording() store.Wording {
	return store.Wording{Agent: "Gemini CLI", Kind: "a Gemini CLI chat", Folders: "~/.gemini/tmp, or $GEMINI_CLI_HOME/.gemini/tmp"}
}
func (backend) ImportFormat() string { return "gemini" }

// Claims a file in a chats/ folder of Gemini CLI's tmp folder: a
// session's (session-*.jsonl) or a sub-agent's (chats/<parent>/<id>.jsonl).
func (backend) Claims(path string) bool {
	if !strings.HasSuffix(path, ".jsonl") && !strings.HasSuffix(path, ".json") {
		return false
	}
	dir := filepath.Dir(path)
	if IsChatFileName(filepath.Base(path)) {
		return filepath.Base(dir) == "chats"
	}
	return strings.HasSuffix(path, ".jsonl") && filepath.Base(filepath.Dir(dir)) == "chats"
}

// Detect: a chat file starts with its metadata, {sessionId, projectHash,
// startTime, ...}.
func (backend) Detect(line []byte, first bool) bool { return first && detect(line) }

// Roots is where Gemini CLI keeps chats: $GEMINI_CLI_HOME/.gemini/tmp, else
// ~/.gemini/tmp.
func (backend) Roots(e store.Env) []string { return []string{TmpDir(os.Getenv, e.Home)} }

// Resume: gemini --resume <id>, in the project's folder (Gemini CLI looks
// for the session among the project's chats).
func (backend) Resume(path string) (string, []string) {
	id := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if s, err := Open(path); err == nil && s.Meta.SessionID != "" {
		id = s.Meta.SessionID
	}
	return "gemini", []string{"--resume", id}
}

// PartName: any chat file may be the stub a resume leaves.
func (backend) PartName(base string) bool { return IsChatFileName(base) }

// PartOf: a file holding only the session context, which a resume run in
// another minute than the session's file was named in leaves beside it
// (the same session id), is a part of that session.
func (backend) PartOf(path string) error {
	s, err := Open(path)
	if err != nil || s.Resumable() || s.Meta.SessionID == "" {
		return nil
	}
	others, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "session-*"+shortID(s.Meta.SessionID)+".json*"))
	for _, o := range others {
		if o == path {
			continue
		}
		if t, err := Open(o); err == nil && t.Meta.SessionID == s.Meta.SessionID && t.Resumable() {
			return &store.PartOfSession{Reason: "a Gemini CLI resume's empty start, beside its session's chat file"}
		}
	}
	return nil
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
