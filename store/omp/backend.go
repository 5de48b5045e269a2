// Package omp is oh-my-pi's sessions for the store. oh-my-pi (omp) is a
// fork of pi that writes pi's session files (version 3) in a folder of its
// own, ~/.omp/agent/sessions/--<cwd>--/: pi's reader reads them (through
// the registry: store.Alias), and this package says only what is
// oh-my-pi's: its folder, its name in the list, its resume command.
package omp

import (
	"os"
	"path/filepath"
	"strings"

	"skein/store"
)

// Format is the name of oh-my-pi's records in the list and the indexes.
const Format store.Format = "omp"

// backend reads oh-my-pi's sessions read-only: omp appends to them while
// it runs, with no lock of pi's skein could share. A write imports the
// session first (into a copy skein writes).
var backend = &store.Alias{Of: store.FormatPi, ReadOnly: store.ReadOnly{
	Name: Format,
	Words: store.Wording{Agent: "oh-my-pi", Kind: "an oh-my-pi session (pi's format)",
		Folders: "~/.omp/agent/sessions, or $OMP_CODING_AGENT_DIR/sessions"},
	ClaimsPath: claims,
	RootsOf:    store.RootFrom(SessionsDir),
	// omp --session <file> opens that session file (cli/args.ts).
	ResumeCmd: func(path string) (string, []string) { return "omp", []string{"--session", path} },
}}

func init() { store.Register(backend) }

// SessionsDir is where omp keeps its sessions (getSessionsDir):
// $OMP_CODING_AGENT_DIR/sessions, else ~/.omp/agent/sessions.
func SessionsDir(getenv func(string) string, home string, expand func(string) string) string {
	return store.EnvDir(getenv, expand, "OMP_CODING_AGENT_DIR", filepath.Join(home, ".omp", "agent"), "sessions")
}

// claims is Claims: a .jsonl file under ~/.omp/agent/sessions/ (or the folder
// $OMP_CODING_AGENT_DIR names).
func claims(path string) bool {
	if !strings.HasSuffix(path, ".jsonl") {
		return false
	}
	p := filepath.ToSlash(path)
	if strings.Contains(p, "/.omp/agent/sessions/") {
		return true
	}
	if d := os.Getenv("OMP_CODING_AGENT_DIR"); d != "" && filepath.IsAbs(d) {
		return strings.HasPrefix(p, filepath.ToSlash(filepath.Join(d, "sessions"))+"/")
	}
	return false
}
