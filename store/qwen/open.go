package qwen

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"skein/internal/jscan"
	"skein/internal/readfile"
	"skein/model"
	"skein/store"
)

// ProjectsDir is where Qwen Code keeps its projects' chats (Storage's
// getRuntimeBaseDir + "projects"): $QWEN_RUNTIME_DIR, else $QWEN_HOME,
// else ~/.qwen, with "projects" under it (a runtime dir given in
// settings.json, advanced.runtimeOutputDir, is not read). getenv reads
// the environment, home is the user's home; a relative or ~ path is
// expanded by expand. A project's chats are in <cwd with every
// character but a letter or a digit as ->/chats/ under it.
func ProjectsDir(getenv func(string) string, home string, expand func(string) string) string {
	base := store.EnvDir(getenv, expand, "QWEN_HOME", filepath.Join(home, ".qwen"))
	return store.EnvDir(getenv, expand, "QWEN_RUNTIME_DIR", base, "projects")
}

// Open reads the chat at path whole (a regular file: a FIFO would block,
// a device never end) and its sub-agents' transcripts (AgentPaths), and
// parses them. A sub-agent's file that cannot be read is left out and
// reported. A path that is itself a sub-agent's transcript is read alone.
func Open(path string) (*Session, error) {
	data, err := readfile.Regular(path)
	if err != nil {
		return nil, err
	}
	var agents []AgentFile
	var problems []model.Diagnostic
	if !IsAgentFileName(filepath.Base(path)) {
		agents, problems = store.ReadSubFiles(path, AgentPaths(path), "sub-agent transcript", nil, func(name, p string, b []byte) AgentFile {
			meta, _ := readfile.Regular(strings.TrimSuffix(p, ".jsonl") + ".meta.json")
			if len(meta) > 1<<20 || !jscan.Valid(meta) {
				meta = nil
			}
			return AgentFile{Name: name, Data: b, Meta: meta}
		})
	}
	s, err := ParseFiles(data, agents)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.path = path
	s.Diagnostics = append(s.Diagnostics, problems...)
	return s, nil
}

// IsAgentFileName reports whether a file name is a sub-agent's transcript
// (agent-<agentId>.jsonl): part of a session, not a session of its own.
func IsAgentFileName(name string) bool {
	return strings.HasPrefix(name, "agent-") && strings.HasSuffix(name, ".jsonl") && len(name) > len("agent-.jsonl")
}

// AgentDir is where Qwen Code writes the sub-agents' transcripts of the
// chat at path (getSubagentSessionDir): <project>/subagents/<sessionId>/,
// beside <project>/chats/.
func AgentDir(path string) string {
	id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	chats := filepath.Dir(path)
	if filepath.Base(chats) == "archive" {
		chats = filepath.Dir(chats) // an archived chat: chats/archive/<sessionId>.jsonl
	}
	return filepath.Join(filepath.Dir(chats), "subagents", id)
}

// AgentPaths are the sub-agents' transcripts of the chat at path, sorted.
func AgentPaths(path string) []string {
	entries, err := os.ReadDir(AgentDir(path))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && IsAgentFileName(e.Name()) {
			out = append(out, filepath.Join(AgentDir(path), e.Name()))
		}
	}
	return out
}

// chatOf is the chat a sub-agent's transcript at path belongs to:
// <project>/chats/<sessionId>.jsonl for <project>/subagents/<sessionId>/agent-*.jsonl.
func chatOf(path string) string {
	dir := filepath.Dir(path)
	if filepath.Base(filepath.Dir(dir)) != "subagents" {
		return ""
	}
	return filepath.Join(filepath.Dir(filepath.Dir(dir)), "chats", filepath.Base(dir)+".jsonl")
}

// sessionFile matches the chats Qwen Code lists (SESSION_FILE_PATTERN).
var sessionFile = regexp.MustCompile(`^[0-9a-fA-F-]{32,36}\.jsonl$`)

// IsChatPath reports whether path is where Qwen Code writes a chat
// (.../projects/<project>/chats/<uuid>.jsonl, or chats/archive/ for an
// archived one) or a sub-agent's transcript
// (.../projects/<project>/subagents/<sessionId>/agent-<agentId>.jsonl).
func IsChatPath(path string) bool {
	path = filepath.Clean(path)
	dir, name := filepath.Dir(path), filepath.Base(path)
	switch {
	case sessionFile.MatchString(name) && filepath.Base(dir) == "archive" && filepath.Base(filepath.Dir(dir)) == "chats":
		return filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(dir)))) == "projects"
	case sessionFile.MatchString(name) && filepath.Base(dir) == "chats":
		return filepath.Base(filepath.Dir(filepath.Dir(dir))) == "projects"
	case IsAgentFileName(name) && filepath.Base(filepath.Dir(dir)) == "subagents":
		return filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(dir)))) == "projects"
	}
	return false
}
