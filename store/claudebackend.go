package store

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"skein/model"
	"skein/store/claude"
	"skein/store/pi"
)

// claudeBackend reads Claude Code's project logs, read-only (Claude Code
// appends to them while it runs).
var claudeBackend = readOnly{
	format: FormatClaude,
	agent:  "Claude Code",
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
	// A sub-agent's file belongs to the session whose call started it,
	// and is shown with it when that session is there; alone, it is a
	// session of its own (read alone, as claude.Open reads it).
	listable: func(path string) error {
		if claude.IsAgentFileName(filepath.Base(path)) && claudeParentThere(path) {
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

// claudeParentThere reports whether the session a sub-agent's log at path
// belongs to is there to show it: <session>.jsonl beside the folder
// <session>/subagents/ that holds it (Claude Code 2.1, a few levels deep),
// or, for a log in the project folder itself (2.0), the file named by the
// sessionId of its first lines, beside it. claude.AgentPaths finds the
// logs of a session the same two ways.
func claudeParentThere(path string) bool {
	dir := filepath.Dir(path)
	for d, depth := dir, 0; depth <= 4; d, depth = filepath.Dir(d), depth+1 {
		if filepath.Base(d) == "subagents" {
			if isRegularFile(filepath.Dir(d) + ".jsonl") {
				return true
			}
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	f, _, err := pi.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, claude.HeadSize)
	n, _ := io.ReadFull(f, head)
	id := claude.SessionIDOf(head[:n])
	return id != "" && !strings.ContainsAny(id, `/\`) && isRegularFile(filepath.Join(dir, id+".jsonl"))
}

// isRegularFile reports whether path names a regular file (through links).
func isRegularFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
