package codex

import (
	"os"
	"path/filepath"
	"strings"

	"skein/store"
)

// backend is Codex CLI's rollouts for the store, read-only: Codex appends
// to them while it runs, without a lock. Each rollout is read whole (Open,
// ListInfo); its session's id is its session_meta's, else its name.
var backend = &store.ReadOnlyFile[*Session]{
	ReadOnly: store.ReadOnly{
		Name:  store.FormatCodex,
		Words: store.Wording{Agent: "Codex", Kind: "a Codex rollout", Folders: "~/.codex/sessions, or $CODEX_HOME/sessions"},
		// A file named as Codex names its rollouts.
		ClaimsPath: func(path string) bool {
			return strings.HasSuffix(path, ".jsonl") && IsRolloutFileName(filepath.Base(path))
		},
		DetectLine: detect,
		// $CODEX_HOME/sessions, else ~/.codex/sessions.
		RootsOf:   func(e store.Env) []string { return []string{SessionsDir(os.Getenv, e.Home)} },
		ResumeCmd: resume,
	},
	WholeFile: store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession,
		ID: func(s *Session, _ string) string { return s.Meta.ID }},
}

func init() { store.Register(backend) }

// detect is Detect: a rollout's records carry a payload under one of four
// types; a legacy bare rollout starts with {id, timestamp}.
func detect(line []byte, first bool) bool {
	m := store.Members(line, "type", "payload", "id", "uuid", "sessionId")
	switch {
	case m[1].Present:
		switch m[0].Value {
		case "session_meta", "response_item", "event_msg", "turn_context":
			return true
		}
	case first && m[2].Value != "" && !m[0].Present && !m[3].Present && !m[4].Present:
		return true
	}
	return false
}

// resume is Resume: codex resume <id> goes on with a rollout.
func resume(path string) (string, []string) {
	id := filepath.Base(path)
	if s, err := Open(path); err == nil && s.Meta.ID != "" {
		id = s.Meta.ID
	}
	return "codex", []string{"resume", id}
}
