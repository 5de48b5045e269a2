package cline

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"skein/internal/readfile"
	"skein/model"
	"skein/store"
)

// Names of the files.
const (
	MessagesSuffix = ".messages.json"
	// ExtensionFile is the VS Code extension's history of a task.
	ExtensionFile = "api_conversation_history.json"
)

// SessionsDir is where the CLI keeps its session folders
// (resolveSessionDataDir): $CLINE_SESSION_DATA_DIR, else
// $CLINE_DATA_DIR/sessions, else $CLINE_DIR/data/sessions, else
// ~/.cline/data/sessions.
func SessionsDir(getenv func(string) string, home string) string {
	if d := getenv("CLINE_SESSION_DATA_DIR"); d != "" {
		return d
	}
	if d := getenv("CLINE_DATA_DIR"); d != "" {
		return filepath.Join(d, "sessions")
	}
	if d := getenv("CLINE_DIR"); d != "" {
		return filepath.Join(d, "data", "sessions")
	}
	return filepath.Join(home, ".cline", "data", "sessions")
}

// TasksDir is where the VS Code extension keeps its tasks on Linux (its
// global storage).
func TasksDir(home string) string {
	return filepath.Join(home, ".config", "Code", "User", "globalStorage", "saoudrizwan.claude-dev", "tasks")
}

// IsSessionFile reports whether path names a session by its name: the
// lead's <id>.messages.json in a folder <id>, or an extension task's
// api_conversation_history.json.
func IsSessionFile(path string) bool {
	base := filepath.Base(path)
	if base == ExtensionFile {
		return true
	}
	id, ok := strings.CutSuffix(base, MessagesSuffix)
	return ok && id != "" && filepath.Base(filepath.Dir(path)) == id
}

// IsPartName reports whether a file of that name may be a part of a CLI
// session: its manifest <id>.json, a sub-agent's messages, the
// extension's ui_messages.json and other task files.
func IsPartName(base string) bool {
	return strings.HasSuffix(base, ".json")
}

// partOf is the session file a part at path belongs to, "" for none.
func partOf(path string) string {
	dir := filepath.Dir(path)
	id := filepath.Base(dir)
	base := filepath.Base(path)
	for _, s := range []string{filepath.Join(dir, id+MessagesSuffix), filepath.Join(dir, ExtensionFile)} {
		if s == path {
			return ""
		}
		if store.IsRegularFile(s) {
			if s == filepath.Join(dir, ExtensionFile) || base == id+".json" || strings.HasSuffix(base, MessagesSuffix) || strings.HasSuffix(base, ".compaction.json") {
				return s
			}
		}
	}
	return ""
}

// agentPaths are the sub-agents' messages files beside a lead's.
func agentPaths(path string) []string {
	dir := filepath.Dir(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, MessagesSuffix) && filepath.Join(dir, n) != path {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}

// readWhole reads a file Cline may be rewriting: when it does not parse
// as JSON, or changed while it was read, it is read again (a few times),
// so that a file caught half-written is a retry, not a broken session.
// Cline writes to a temporary name and renames, which a reader never sees
// half-done; this is for a writer that does not.
func readWhole(path string) ([]byte, error) {
	var data []byte
	var err error
	for try := 0; try < 4; try++ {
		if try > 0 {
			time.Sleep(time.Duration(try*25) * time.Millisecond)
		}
		before, serr := os.Stat(path)
		data, err = readfile.Regular(path)
		if err != nil {
			return nil, err
		}
		after, aerr := os.Stat(path)
		same := serr == nil && aerr == nil && before.Size() == after.Size() && before.ModTime().Equal(after.ModTime()) && os.SameFile(before, after)
		if same && validJSON(data) {
			return data, nil
		}
	}
	return data, nil
}

func validJSON(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && (b[0] == '{' || b[0] == '[') && jsonValid(b)
}

// Open reads the session at path: its messages, then (for the CLI's) its
// manifest and its sub-agents' messages beside it. A sub-agent's file that
// does not read is left out and reported.
func Open(path string) (*Session, error) {
	data, err := readWhole(path)
	if err != nil {
		return nil, err
	}
	f, msgs, diags, err := parseFile(data, "")
	if err != nil {
		return nil, err
	}
	s := &Session{File: f, Diagnostics: diags}
	s.add(0, msgs)
	if filepath.Base(path) != ExtensionFile && f.Origin.ParentThreadID == "" {
		id := strings.TrimSuffix(filepath.Base(path), MessagesSuffix)
		if b, err := readWhole(filepath.Join(filepath.Dir(path), id+".json")); err == nil {
			var m Manifest
			if jsonUnmarshal(b, &m) == nil {
				s.Manifest = &m
			}
		}
		for _, p := range agentPaths(path) {
			name := filepath.Base(p)
			b, err := readWhole(p)
			var af File
			var am []Message
			var ad []model.Diagnostic
			if err == nil {
				af, am, ad, err = parseFile(b, name)
			}
			if err == nil && af.Origin.ParentThreadID == "" && af.Agent != "subagent" {
				err = errors.New("not a sub-agent's messages")
			}
			if err != nil {
				s.Diagnostics = append(s.Diagnostics, model.Diagnostic{File: name, Warning: true, Msg: "sub-agent messages left out: " + err.Error()})
				continue
			}
			s.Diagnostics = append(s.Diagnostics, ad...)
			s.Agents = append(s.Agents, Agent{Name: name, ID: af.Origin.Subagent, Call: -1})
			s.add(len(s.Agents), am)
		}
	}
	s.link()
	return s, nil
}
