// Package store is skein's disk: where sessions live, what format a file is,
// listing them fast, the trash and the indexes' reads. It knows no format:
// each format's package implements a Backend and registers it (Register),
// and store/formats wires them. It knows nothing of the UI.
package store

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
)

// Env is what discovery reads from the environment; tests fill it in.
type Env struct {
	Home           string
	PiAgentDir     string // PI_CODING_AGENT_DIR
	PiSessionDir   string // PI_CODING_AGENT_SESSION_DIR
	DharaHome      string // DHARA_HOME
	WorkingDirPath string
	// Trash, when set, is the only trash a delete moves sessions to (the
	// demo's own, thrown away with it), not the user's.
	Trash string
}

// OSEnv reads the process environment.
func OSEnv() Env {
	home, _ := os.UserHomeDir()
	wd, _ := os.Getwd()
	return Env{
		Home:           home,
		PiAgentDir:     os.Getenv("PI_CODING_AGENT_DIR"),
		PiSessionDir:   os.Getenv("PI_CODING_AGENT_SESSION_DIR"),
		DharaHome:      os.Getenv("DHARA_HOME"),
		WorkingDirPath: wd,
	}
}

// Expand resolves ~ and relative paths the way pi's settings do.
func (e Env) Expand(p, base string) string {
	switch {
	case p == "~":
		return e.Home
	case strings.HasPrefix(p, "~/"):
		return filepath.Join(e.Home, p[2:])
	case !filepath.IsAbs(p):
		return filepath.Join(base, p)
	}
	return p
}

func (e Env) agentDir() string {
	if e.PiAgentDir != "" {
		return e.Expand(e.PiAgentDir, e.WorkingDirPath)
	}
	return filepath.Join(e.Home, ".pi", "agent")
}

// PiSessionRoot is where pi keeps sessions: $PI_CODING_AGENT_SESSION_DIR,
// else sessionDir in the agent dir's settings.json, else <agent dir>/sessions.
func (e Env) PiSessionRoot() string {
	if e.PiSessionDir != "" {
		return e.Expand(e.PiSessionDir, e.WorkingDirPath)
	}
	agent := e.agentDir()
	if data, err := os.ReadFile(filepath.Join(agent, "settings.json")); err == nil {
		var settings struct {
			SessionDir string `json:"sessionDir"`
		}
		if json.Unmarshal(data, &settings) == nil && settings.SessionDir != "" {
			return e.Expand(settings.SessionDir, e.WorkingDirPath)
		}
	}
	return filepath.Join(agent, "sessions")
}

// PiSettingsSessionDir reports whether pi's settings.json names a session
// folder (pi then keeps every session in it, with no folder per cwd).
func (e Env) PiSettingsSessionDir() bool {
	return e.PiSessionRoot() != filepath.Join(e.agentDir(), "sessions")
}

// DharaSessionRoot is where Dhara keeps sessions: $DHARA_HOME/sessions,
// else ~/.dhara/sessions.
func (e Env) DharaSessionRoot() string {
	if e.DharaHome != "" {
		return filepath.Join(e.Expand(e.DharaHome, e.WorkingDirPath), "sessions")
	}
	return filepath.Join(e.Home, ".dhara", "sessions")
}

// DefaultRoots are the folders searched when no path is named: each
// registered format's agent's (Roots), each once, pi's (the fallback's)
// first.
func (e Env) DefaultRoots() []string {
	var out []string
	bs := fallbackFirst()
	for _, b := range bs {
		if r, ok := b.(Roots); ok {
			for _, root := range r.Roots(e) {
				if !slices.Contains(out, root) {
					out = append(out, root)
				}
			}
		}
	}
	return out
}

// isSessionDir reports whether a folder is one session of a format whose
// sessions are folders (Dhara's: it holds meta.json or entries.jsonl).
// Discover lists it as one session and does not look inside.
func isSessionDir(dir string) bool {
	for _, b := range Backends() {
		if f, ok := b.(Folders); ok && f.IsSessionFolder(dir) {
			return true
		}
	}
	return false
}

// IsSessionDir reports whether dir is a session that is a folder (Dhara's).
func IsSessionDir(dir string) bool { return isSessionDir(dir) }

// SessionOf is the session a changed file belongs to, for live follow: a
// session file is its own; a file of a session folder is the folder's
// (one whose name starts with a dot is being written: an import). false:
// the file is no session's.
func SessionOf(path string) (string, bool) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	for _, b := range Backends() {
		if f, ok := b.(Folders); ok && slices.Contains(f.FolderFiles(), base) {
			if strings.HasPrefix(filepath.Base(dir), ".") {
				return "", false
			}
			return dir, true
		}
	}
	if strings.HasPrefix(base, ".") || !isSessionFile(path) {
		return "", false
	}
	return path, true
}

// SessionFiles are the files whose changes live follow watches in a
// folder: those of a session folder, else the .jsonl files in it.
func SessionFiles(dir string) []string {
	var names []string
	for _, b := range Backends() {
		if f, ok := b.(Folders); ok && f.IsSessionFolder(dir) {
			names = f.FolderFiles()
			break
		}
	}
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() {
			continue
		}
		if names != nil {
			if slices.Contains(names, e.Name()) {
				out = append(out, p)
			}
			continue
		}
		if _, ok := SessionOf(p); ok {
			out = append(out, p)
		}
	}
	return out
}

// containerOf is the format that keeps many sessions in a file of that
// name (Container), nil for none.
func containerOf(base string) Container {
	for _, b := range Backends() {
		if c, ok := b.(Container); ok && c.ContainerName(base) {
			return c
		}
	}
	return nil
}

// Discover returns the sessions under the roots: session files (*.jsonl,
// and those a FileNamer names), session folders (Dhara's, Copilot's) and
// each session a container file holds (Container: "<file>#<id>"). Files
// named directly are taken as they are (a container's sessions listed),
// folders are searched recursively, and a
// folder reached twice through symbolic links is searched once. Roots that do
// not exist, and folders that cannot be read, are skipped; their errors are
// returned, joined, with the files found (Problems splits them).
func Discover(roots []string) ([]string, error) {
	var files []string
	seenDirs := map[[2]uint64]bool{}
	seenFiles := map[string]bool{}
	var errs []error
	add := func(p string) {
		if !seenFiles[p] {
			seenFiles[p] = true
			files = append(files, p)
		}
	}
	addContainer := func(p string, c Container) {
		if c == nil {
			return
		}
		ids, err := c.Sessions(p)
		if err != nil {
			errs = append(errs, &fs.PathError{Op: "read", Path: p, Err: err})
		}
		for _, id := range ids {
			add(id)
		}
	}
	var walk func(dir string)
	walk = func(dir string) {
		info, err := os.Stat(dir)
		if err != nil {
			errs = append(errs, err)
			return
		}
		if key, ok := inode(info); ok {
			if seenDirs[key] {
				return
			}
			seenDirs[key] = true
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			errs = append(errs, err)
			return
		}
		for _, de := range entries {
			p := filepath.Join(dir, de.Name())
			mode := de.Type()
			if mode&fs.ModeSymlink != 0 {
				fi, err := os.Stat(p)
				if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ELOOP) {
					continue // a dangling link, or one that leads to itself
				}
				if err != nil {
					errs = append(errs, err)
					continue
				}
				mode = fi.Mode().Type()
			}
			switch {
			case mode.IsDir() && strings.HasPrefix(de.Name(), ".import-"):
				// An import being written (dhara.WriteNew): it appears
				// whole, under its own name, when it is done.
			case mode.IsDir() && isSessionDir(p):
				add(p)
			case mode.IsDir():
				walk(p)
			case mode.IsRegular() && isSessionFile(p):
				add(p)
			case mode.IsRegular():
				addContainer(p, containerOf(de.Name()))
			}
		}
	}
	for _, root := range roots {
		info, err := os.Stat(root)
		c := containerOf(filepath.Base(root))
		switch {
		case err != nil && claimedContained(root):
			add(root) // one session of a container, named by its path
		case errors.Is(err, fs.ErrNotExist):
			errs = append(errs, err)
		case err != nil:
			errs = append(errs, err)
		case info.IsDir() && isSessionDir(root):
			add(root)
		case info.IsDir():
			walk(root)
		case c != nil && info.Mode().IsRegular():
			addContainer(root, c)
		default:
			add(root)
		}
	}
	sort.Strings(files)
	return files, errors.Join(errs...)
}

// ContainedIn is the file that holds the session at path when path names
// one session of a container ("<file>#<id>", OpenCode's database), and the
// session's format; false for any other path. No IO.
func ContainedIn(path string) (file string, b Backend, ok bool) {
	b = claimedByPath(path)
	c, ok := b.(Container)
	if !ok {
		return "", nil, false
	}
	if files := c.ContainerFiles(path); len(files) > 0 {
		return files[0], b, true
	}
	return "", nil, false
}

// claimedContained reports whether path names one session of a container
// (a "<file>#<id>" path its format claims).
func claimedContained(path string) bool {
	_, ok := claimedByPath(path).(Container)
	return ok
}

// Problems splits an error of Discover into the paths it could not read,
// leaving out roots that do not exist when missingOK.
func Problems(err error, missingOK bool) []Problem {
	if err == nil {
		return nil
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	var out []Problem
	for _, e := range errs {
		if missingOK && errors.Is(e, fs.ErrNotExist) {
			continue
		}
		var pe *fs.PathError
		if errors.As(e, &pe) {
			out = append(out, Problem{pe.Path, e})
		} else {
			out = append(out, Problem{"", e})
		}
	}
	return out
}
