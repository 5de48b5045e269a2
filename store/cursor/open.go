package cursor

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"skein/internal/readfile"
	"skein/model"
	"skein/store"
)

// ProjectsDir is where Cursor keeps its projects' folders:
// $CURSOR_CONFIG_DIR/projects, else ~/.cursor/projects (peers' readers
// say so; Cursor's code is not public).
func ProjectsDir(getenv func(string) string, home string, expand func(string) string) string {
	return store.EnvDir(getenv, expand, "CURSOR_CONFIG_DIR", filepath.Join(home, ".cursor"), "projects")
}

// Opened is a transcript read from its file, with the folder its project
// folder's name stands for.
type Opened struct {
	*Session
	Cwd string
}

// Info is the session's record, with its cwd.
func (o Opened) Info(path string, mtimeMs float64) model.SessionInfo {
	return o.Session.Info(path, mtimeMs, o.Cwd)
}

// Domain is the session as the domain sees it, with its cwd.
func (o Opened) Domain(info model.SessionInfo) *model.Session {
	if info.Cwd == "" {
		info.Cwd = o.Cwd
	}
	return o.Session.Domain(info)
}

// Open reads the transcript at path whole and, for a session's own
// transcript (<id>/<id>.jsonl), its sub-agents' (<id>/subagents/*.jsonl).
func Open(path string) (Opened, error) {
	data, err := readfile.Regular(path)
	if err != nil {
		return Opened{}, err
	}
	var agents []AgentFile
	var problems []model.Diagnostic
	if !IsAgentPath(path) {
		dir := filepath.Dir(path)
		names, _ := filepath.Glob(filepath.Join(dir, "subagents", "*.jsonl"))
		if filepath.Base(dir) != strings.TrimSuffix(filepath.Base(path), ".jsonl") {
			names = nil // the flat layout: no folder of its own
		}
		agents, problems = store.ReadSubFiles(path, names, "sub-agent transcript", nil,
			func(name, _ string, b []byte) AgentFile { return AgentFile{Name: name, Data: b} })
	}
	s, err := ParseFiles(data, agents)
	if err != nil {
		return Opened{}, fmt.Errorf("%s: %w", path, err)
	}
	s.path = path
	s.Diagnostics = append(s.Diagnostics, problems...)
	return Opened{s, ProjectCwd(path)}, nil
}

// IsAgentPath reports whether path is a sub-agent's transcript:
// agent-transcripts/<id>/subagents/<agent id>.jsonl.
func IsAgentPath(path string) bool {
	dir := filepath.Dir(path)
	return filepath.Base(dir) == "subagents" && filepath.Base(filepath.Dir(filepath.Dir(dir))) == "agent-transcripts"
}

// ParentOf is the transcript of the session a sub-agent's transcript
// belongs to ("" for a path that is none).
func ParentOf(path string) string {
	if !IsAgentPath(path) {
		return ""
	}
	dir := filepath.Dir(filepath.Dir(path))
	return filepath.Join(dir, filepath.Base(dir)+".jsonl")
}

// IsTranscriptPath reports whether path is where Cursor keeps a
// transcript: agent-transcripts/<id>.jsonl (the CLI's first layout),
// agent-transcripts/<id>/<id>.jsonl, or a sub-agent's under it.
func IsTranscriptPath(path string) bool {
	base := filepath.Base(path)
	if !strings.HasSuffix(base, ".jsonl") || strings.HasPrefix(base, ".") {
		return false
	}
	dir := filepath.Dir(path)
	switch {
	case filepath.Base(dir) == "agent-transcripts":
		return true
	case filepath.Base(filepath.Dir(dir)) == "agent-transcripts":
		return filepath.Base(dir)+".jsonl" == base
	}
	return IsAgentPath(path)
}

// ProjectCwd is the folder a transcript's project folder's name stands
// for: Cursor names it by the workspace's path with each run of
// characters that are not letters or digits as one "-", trimmed
// (/home/dev/my_app is home-dev-my-app), which cannot be read back; the
// folder is found by walking the file system from / for the one folder
// whose path gives that name. "" when none or more than one does.
func ProjectCwd(path string) string {
	p := filepath.ToSlash(path)
	i := strings.LastIndex(p, "/agent-transcripts/")
	if i < 0 {
		return ""
	}
	enc := filepath.Base(p[:i])
	if v, ok := cwdCache.Load(enc); ok {
		return v.(string)
	}
	var found []string
	walkSlug("/", strings.Split(enc, "-"), &found)
	cwd := ""
	if len(found) == 1 {
		cwd = found[0]
	}
	cwdCache.Store(enc, cwd)
	return cwd
}

var (
	cwdCache sync.Map
	nonAlnum = regexp.MustCompile(`[^A-Za-z0-9]+`)
)

// Slug is a folder name as Cursor writes it into a project folder's name.
func Slug(name string) string { return strings.Trim(nonAlnum.ReplaceAllString(name, "-"), "-") }

// walkSlug adds to found each folder under dir whose names, slugged,
// are parts in order (at most two found: one is the answer).
func walkSlug(dir string, parts []string, found *[]string) {
	if len(*found) > 1 || len(parts) == 0 || parts[0] == "" {
		return
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, de := range des {
		if !de.IsDir() {
			continue
		}
		sl := Slug(de.Name())
		if sl == "" {
			continue
		}
		n := len(strings.Split(sl, "-"))
		if n > len(parts) || strings.Join(parts[:n], "-") != sl {
			continue
		}
		if n == len(parts) {
			*found = append(*found, filepath.Join(dir, de.Name()))
		} else {
			walkSlug(filepath.Join(dir, de.Name()), parts[n:], found)
		}
	}
}
