package codex

import (
	"os"
	"path/filepath"
	"strings"

	"skein/model"
	"skein/store"
)

// backend is Codex CLI's rollouts for the store, read-only: Codex appends
// to them while it runs, without a lock.
type backend struct{}

func init() { store.Register(backend{}) }

func (backend) Format() store.Format { return store.FormatCodex }
func (backend) Wording() store.Wording {
	return store.Wording{Agent: "Codex", Kind: "a Codex rollout"}
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

// Open reads a rollout, with the list record's fields (its first prompt,
// not the instructions the agent put first) from what is parsed.
func (backend) Open(path string) (*model.Session, error) {
	s, err := Open(path)
	if err != nil {
		return nil, store.NotSessionIf(err, ErrNotSession)
	}
	return s.Domain(s.Info(path, 0)), nil
}

func (backend) ListInfo(path string, buf []byte) ([]byte, store.Info, error) {
	s, err := Open(path)
	if err != nil {
		return buf, store.Info{}, store.NotSessionIf(err, ErrNotSession)
	}
	return buf, s.Info(path, store.ModTimeMs(path)), nil
}

// SessionID is the rollout's session id, else its name.
func (backend) SessionID(path string) (string, error) {
	s, err := Open(path)
	if err != nil {
		return "", store.NotSessionIf(err, ErrNotSession)
	}
	if s.Meta.ID != "" {
		return s.Meta.ID, nil
	}
	return strings.TrimSuffix(filepath.Base(path), ".jsonl"), nil
}

// Resume: codex resume <id> goes on with a rollout.
func (backend) Resume(path string) (string, []string) {
	id := filepath.Base(path)
	if s, err := Open(path); err == nil && s.Meta.ID != "" {
		id = s.Meta.ID
	}
	return "codex", []string{"resume", id}
}
