package claude

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"skein/internal/jscan"
	"skein/internal/readfile"
	"skein/store"
)

// IsAgentFileName reports whether a file name is a sub-agent's log
// (agent-<agentId>.jsonl): part of a session, not a session of its own.
func IsAgentFileName(name string) bool {
	return strings.HasPrefix(name, "agent-") && strings.HasSuffix(name, ".jsonl") && len(name) > len("agent-.jsonl")
}

// Open reads the session file at path whole (a regular file: a FIFO would
// block, a device never end), and the logs of its sub-agents that
// AgentPaths finds, and parses them. A sub-agent's file that cannot be
// read is left out and reported. A path that is itself an agent's file is
// read alone.
func Open(path string) (*Session, error) {
	data, err := readRegular(path)
	if err != nil {
		return nil, err
	}
	var agents []string
	if !IsAgentFileName(filepath.Base(path)) {
		agents = AgentPaths(path, SessionIDOf(data))
	}
	return openFiles(path, data, agents)
}

// OpenFiles is Open with the sub-agents' logs named by the caller (one
// that has listed the folder once for all its sessions, see SessionIDOf).
func OpenFiles(path string, agents []string) (*Session, error) {
	data, err := readRegular(path)
	if err != nil {
		return nil, err
	}
	return openFiles(path, data, agents)
}

func openFiles(path string, data []byte, paths []string) (*Session, error) {
	agents, problems := store.ReadSubFiles(path, paths, "sub-agent log", nil, func(name, p string, b []byte) AgentFile {
		meta, _ := readSmall(strings.TrimSuffix(p, ".jsonl") + ".meta.json")
		return AgentFile{Name: name, Data: b, Meta: meta}
	})
	s, err := ParseFiles(data, agents)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.Diagnostics = append(s.Diagnostics, problems...)
	return s, nil
}

// AgentPaths are the sub-agent logs of the session file at path, sorted:
// every agent-*.jsonl under <dir>/<name>/subagents/ (Claude Code 2.1; a few
// levels deep, as workflows nest them), and every agent-*.jsonl beside the
// session whose first lines name its sessionId (Claude Code 2.0, which
// kept them in the project folder). sessionID is the session's own ("":
// the file's name without .jsonl).
func AgentPaths(path, sessionID string) []string {
	dir := filepath.Dir(path)
	stem := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	ids := []string{stem}
	if sessionID != "" && sessionID != stem {
		ids = append(ids, sessionID)
	}
	var out []string
	walkSubagents(filepath.Join(dir, stem, "subagents"), func(p string, e fs.DirEntry) {
		if e.Type().IsRegular() && IsAgentFileName(e.Name()) {
			out = append(out, p)
		}
	})
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			if !e.Type().IsRegular() || !IsAgentFileName(e.Name()) {
				continue
			}
			p := filepath.Join(dir, e.Name())
			if head, err := readHead(p, HeadSize); err == nil && slices.Contains(ids, SessionIDOf(head)) {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// walkSubagents calls fn with everything under a session's subagents
// folder, a few levels deep (workflows nest their agents' folders), a
// folder before what is in it.
func walkSubagents(sub string, fn func(path string, e fs.DirEntry)) {
	var walk func(d string, depth int)
	walk = func(d string, depth int) {
		ents, err := os.ReadDir(d)
		if err != nil {
			return
		}
		for _, e := range ents {
			p := filepath.Join(d, e.Name())
			fn(p, e)
			if e.IsDir() && depth < 4 {
				walk(p, depth+1)
			}
		}
	}
	walk(sub, 0)
}

// HeadSize is what AgentPaths reads of an agent file beside a session to
// find whose it is.
const HeadSize = 16 << 10

// SessionIDOf is the sessionId of the first line of data that has one, ""
// for none: whose sub-agent an agent-*.jsonl is, from its first bytes (a
// line cut off by the end of data is searched as text).
func SessionIDOf(data []byte) string {
	data = bytes.TrimPrefix(data, jscan.BOM)
	for len(data) > 0 {
		ln, rest, found := bytes.Cut(data, nl)
		data = rest
		ln = jscan.TrimBlank(ln)
		if len(ln) == 0 {
			continue
		}
		if !found && !jscan.Valid(ln) {
			const key = `"sessionId":"`
			if i := bytes.Index(ln, []byte(key)); i >= 0 {
				v := ln[i+len(key):]
				if j := bytes.IndexByte(v, '"'); j >= 0 && bytes.IndexByte(v[:j], '\\') < 0 {
					return string(v[:j])
				}
			}
			return ""
		}
		if !jscan.Valid(ln) {
			continue
		}
		if id, ok := jscan.String(jscan.Member(ln, "sessionId")); ok && id != "" {
			return id
		}
	}
	return ""
}

func readRegular(path string) ([]byte, error) { return readfile.Regular(path) }

func openRegular(path string) (*os.File, os.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%s is not a regular file", path)
		}
		return nil, nil, err
	}
	return f, fi, nil
}

// readHead reads up to n bytes from the start of a regular file.
func readHead(path string, n int) ([]byte, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	k, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return buf[:k], err
}

// readSmall reads a small regular file (a meta.json), nil when it is
// absent or larger than 1 MB.
func readSmall(path string) ([]byte, error) {
	b, err := readHead(path, 1<<20+1)
	if err != nil || len(b) > 1<<20 {
		return nil, err
	}
	return b, nil
}
