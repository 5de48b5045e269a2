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
type backend struct{ *store.WholeFile[*Session] }

func init() {
	store.Register(backend{&store.WholeFile[*Session]{Reader: Open, NotSession: ErrNotSession,
		ID: func(s *Session, _ string) string { return s.Meta.ID }}})
}

func (backend) Format() store.Format { return store.FormatCodex }
func (backend) Wording() store.Wording {
	return store.Wording{Agent: "Codex", Kind: "a Codex rollout", Folders: "~/.codex/sessions, or $CODEX_HOME/sessions"}
}
func (backend) ImportFormat() string { return "codex" }

// Claims a file named as Codex names its rollouts.
func (backend) Claims(path string) bool {
	return strings.HasSuffix(path, ".jsonl") && IsRolloutFileName(filepath.Base(path))
}

// Detect: a rollout's records carry a payload under one of four types; a
// legacy bare rollout starts with {id, timestamp}.
func (backend) Detect(line []byte, first bool) bool {
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

// Roots is where Codex keeps rollouts: $CODEX_HOME/sessions, else
// ~/.codex/sessions.
func (backend) Roots(e store.Env) []string { return []string{SessionsDir(os.Getenv, e.Home)} }

// Resume: codex resume <id> goes on with a rollout.
func (backend) Resume(path string) (string, []string) {
	id := filepath.Base(path)
	if s, err := Open(path); err == nil && s.Meta.ID != "" {
		id = s.Meta.ID
	}
	return "codex", []string{"resume", id}
}
