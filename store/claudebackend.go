package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"skein/model"
	"skein/store/claude"
)

// claudeBackend reads Claude Code's project logs, read-only (Claude Code
// appends to them while it runs).
var claudeBackend = readOnly{
	format: FormatClaude,
	claims: func(path string) bool {
		if !strings.HasSuffix(path, ".jsonl") {
			return false
		}
		root := claudeProjects(OSEnv())
		return strings.HasPrefix(filepath.Clean(path), filepath.Clean(root)+string(filepath.Separator)) ||
			strings.Contains(filepath.ToSlash(path), "/.claude/projects/")
	},
	open: func(path string) (*model.Session, error) {
		s, err := claude.Open(path)
		if err != nil {
			if errors.Is(err, claude.ErrNotSession) {
				return nil, &NotSession{Reason: err.Error()}
			}
			return nil, err
		}
		// The list record's fields too (its first prompt, not the
		// instructions the agent put first), from what is parsed.
		return s.Domain(s.Info(path, 0)), nil
	},
	info: func(s *model.Session, path string, mtime float64) Info { return claude.Of(s).Info(path, mtime) },
	// A sub-agent's file belongs to the session whose call started it.
	listable: func(path string) error {
		if claude.IsAgentFileName(filepath.Base(path)) {
			return &PartOfSession{Reason: "a Claude Code sub-agent's log, shown with its session"}
		}
		return nil
	},
	resume: func(path string) (string, []string) {
		return "claude", []string{"--resume", strings.TrimSuffix(filepath.Base(path), ".jsonl")}
	},
	id: func(s *model.Session, path string) string {
		if id := claude.Of(s).SessionID(); id != "" {
			return id
		}
		return strings.TrimSuffix(filepath.Base(path), ".jsonl")
	},
}

// claudeProjects is where Claude Code keeps its logs:
// $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects.
func claudeProjects(e Env) string {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(e.expand(d, e.WorkingDirPath), "projects")
	}
	return filepath.Join(e.Home, ".claude", "projects")
}

// ClaudeSessionRoot is Claude Code's folder of project logs.
func (e Env) ClaudeSessionRoot() string { return claudeProjects(e) }
