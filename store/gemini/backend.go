package gemini

import (
	"os"
	"path/filepath"
	"strings"

	"skein/store"
)

// backend is Gemini CLI's chat files for the store, read-only: Gemini CLI
// appends to them while it runs, without a lock. Each file is read whole.
var backend = &store.ReadOnlyFile[*Session]{
	ReadOnly: store.ReadOnly{
		Name:       Format,
		Words:      store.Wording{Agent: "Gemini CLI", Kind: "a Gemini CLI chat", Folders: "~/.gemini/tmp, or $GEMINI_CLI_HOME/.gemini/tmp"},
		ClaimsPath: claims,
		// A chat file starts with its metadata, {sessionId, projectHash,
		// startTime, ...}.
		DetectLine: func(line []byte, first bool) bool { return first && detect(line) },
		// $GEMINI_CLI_HOME/.gemini/tmp, else ~/.gemini/tmp.
		RootsOf:   func(e store.Env) []string { return []string{TmpDir(os.Getenv, e.Home)} },
		ResumeCmd: resume,
		// Any chat file may be the stub a resume leaves.
		PartNamed:  IsChatFileName,
		Part:       resumeStub,
		PartReason: "a Gemini CLI resume's empty start, beside its session's chat file",
	},
	WholeFile: store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession,
		ID: func(s *Session, _ string) string { return s.Meta.SessionID }},
}

func init() { store.Register(backend) }

// claims is Claims: a file in a chats/ folder of Gemini CLI's tmp folder:
// a session's (session-*.jsonl) or a sub-agent's
// (chats/<parent>/<id>.jsonl).
func claims(path string) bool {
	if !strings.HasSuffix(path, ".jsonl") && !strings.HasSuffix(path, ".json") {
		return false
	}
	dir := filepath.Dir(path)
	if IsChatFileName(filepath.Base(path)) {
		return filepath.Base(dir) == "chats"
	}
	return strings.HasSuffix(path, ".jsonl") && filepath.Base(filepath.Dir(dir)) == "chats"
}

// resume is Resume: gemini --resume <id>, in the project's folder (Gemini
// CLI looks for the session among the project's chats).
func resume(path string) (string, []string) {
	id := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if s, err := Open(path); err == nil && s.Meta.SessionID != "" {
		id = s.Meta.SessionID
	}
	return "gemini", []string{"--resume", id}
}

// resumeStub reports whether the file at path holds only the session
// context, which a resume run in another minute than the session's file
// was named in leaves beside it (the same session id): a part of that
// session (PartOf).
func resumeStub(path string) bool {
	s, err := Open(path)
	if err != nil || s.Resumable() || s.Meta.SessionID == "" {
		return false
	}
	others, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "session-*"+shortID(s.Meta.SessionID)+".json*"))
	for _, o := range others {
		if o == path {
			continue
		}
		if t, err := Open(o); err == nil && t.Meta.SessionID == s.Meta.SessionID && t.Resumable() {
			return true
		}
	}
	return false
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
