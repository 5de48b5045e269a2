package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"skein/model"
	"skein/store/codex"
)

// FormatCodex's backend: Codex CLI rollouts, read-only (Codex appends to
// them while it runs).
var codexBackend = readOnly{
	format: FormatCodex,
	agent:  "Codex",
	claims: func(path string) bool {
		return strings.HasSuffix(path, ".jsonl") && codex.IsRolloutFileName(filepath.Base(path))
	},
	open: func(path string) (*model.Session, error) {
		s, err := codex.Open(path)
		if err != nil {
			if errors.Is(err, codex.ErrNotSession) {
				return nil, &NotSession{Reason: err.Error()}
			}
			return nil, err
		}
		// The list record's fields too (its first prompt, not the
		// instructions the agent put first), from what is parsed.
		return s.Domain(s.Info(path, 0)), nil
	},
	info: func(s *model.Session, path string, mtime float64) Info { return codex.Of(s).Info(path, mtime) },
	// codex resume <id> goes on with a rollout.
	resume: func(path string) (string, []string) {
		id := filepath.Base(path)
		if s, err := codex.Open(path); err == nil && s.Meta.ID != "" {
			id = s.Meta.ID
		}
		return "codex", []string{"resume", id}
	},
	id: func(s *model.Session, path string) string {
		if id := codex.Of(s).Meta.ID; id != "" {
			return id
		}
		return strings.TrimSuffix(filepath.Base(path), ".jsonl")
	},
}

// CodexSessionRoot is where Codex keeps rollouts: $CODEX_HOME/sessions,
// else ~/.codex/sessions.
func (e Env) CodexSessionRoot() string { return codex.SessionsDir(os.Getenv, e.Home) }
