package kimi

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"skein/internal/readfile"
	"skein/model"
	"skein/store"
)

// SessionsDir is where Kimi Code keeps its sessions: $KIMI_CODE_HOME/sessions,
// else ~/.kimi-code/sessions (getenv reads the environment, home is the
// user's home, expand expands a relative or ~ path).
func SessionsDir(getenv func(string) string, home string, expand func(string) string) string {
	return store.EnvDir(getenv, expand, "KIMI_CODE_HOME", filepath.Join(home, ".kimi-code"), "sessions")
}

// Open reads the wire file at path whole and, for the main agent's
// (agents/main/wire.jsonl), its sub-agents' wires (agents/*/wire.jsonl).
// A sub-agent's wire that cannot be read is left out and reported.
func Open(path string) (*Session, error) {
	data, err := readfile.Regular(path)
	if err != nil {
		return nil, err
	}
	var agents []AgentFile
	var problems []model.Diagnostic
	if agentOf(path) == "main" {
		agents, problems = store.ReadSubFiles(path, agentWires(path), "sub-agent wire",
			func(p string) string { return "../" + agentOf(p) + "/wire.jsonl" },
			func(_, p string, b []byte) AgentFile { return AgentFile{Agent: agentOf(p), Data: b} })
	}
	s, err := ParseFiles(data, agents)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.path = path
	s.ID = sessionOf(path)
	s.Diagnostics = append(s.Diagnostics, problems...)
	return s, nil
}

// agentOf is the agent whose wire path is (agents/<agent>/wire.jsonl).
func agentOf(path string) string { return filepath.Base(filepath.Dir(path)) }

// sessionOf is the session folder's name (session_<uuid>) of a wire at
// path, "" when path is not in one.
func sessionOf(path string) string {
	d := filepath.Dir(filepath.Dir(filepath.Dir(path)))
	if filepath.Base(filepath.Dir(filepath.Dir(path))) != "agents" {
		return ""
	}
	return filepath.Base(d)
}

// agentWires are the other agents' wires beside the main agent's at path,
// sorted.
func agentWires(path string) []string {
	dir := filepath.Dir(filepath.Dir(path))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "main" {
			p := filepath.Join(dir, e.Name(), "wire.jsonl")
			if store.IsRegularFile(p) {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// IsWirePath reports whether path is where Kimi Code writes an agent's
// wire: .../sessions/wd_<dir>_<hash>/session_<uuid>/agents/<agent>/wire.jsonl.
func IsWirePath(path string) bool {
	path = filepath.Clean(path)
	if filepath.Base(path) != "wire.jsonl" {
		return false
	}
	agents := filepath.Dir(filepath.Dir(path))
	sess := filepath.Dir(agents)
	wd := filepath.Dir(sess)
	return filepath.Base(agents) == "agents" && strings.HasPrefix(filepath.Base(sess), "session_") &&
		strings.HasPrefix(filepath.Base(wd), "wd_") && filepath.Base(filepath.Dir(wd)) == "sessions"
}

// IDOf is the session's id: the session folder's name; a sub-agent's
// wire is <session>/<agent>.
func (s *Session) IDOf(path string) string {
	id := sessionOf(path)
	if id == "" {
		return strings.TrimSuffix(filepath.Base(path), ".jsonl")
	}
	if a := agentOf(path); a != "main" {
		return id + "/" + a
	}
	return id
}
