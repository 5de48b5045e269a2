package store

import (
	"os"
	"path/filepath"

	"skein/internal/readfile"
	"skein/model"
)

// ReadOnly is the backend of a format skein only reads, said as a struct
// literal of what is the agent's own: its name and words, its import
// name, and the few functions that know its folders, its records and its
// resume command. It gives the methods every format gives that are no
// reading (Format, Wording, Claims, Detect) and the optional interfaces
// every read-only agent's format has (Importable, Roots, Resumer, Parter,
// Companions), so that an agent's package writes none of them. Its
// reading comes beside it: ReadOnlyFile adds WholeFile's, a format whose
// sessions are folders or database rows adds its own Open, ListInfo and
// SessionID. A backend is registered as a pointer: funcs are not
// comparable, and Register's undo compares backends.
type ReadOnly struct {
	Name  Format  // Format: the name of its records in the list and the indexes
	Words Wording // Wording
	// Import is ImportFormat, its name for `session import --format`:
	// the format's own name when empty.
	Import string

	// ClaimsPath is Claims: a path in the agent's own folders, or named as
	// only it names its files. No IO but one stat.
	ClaimsPath func(path string) bool
	// DetectLine is Detect; nil for a format that no line of its files
	// tells (found by name or folder only).
	DetectLine func(line []byte, first bool) bool
	// RootsOf is Roots: where the agent keeps its sessions (RootFrom, for
	// one folder found as the agent finds it).
	RootsOf func(e Env) []string
	// ResumeCmd is Resume: the program that goes on with the session at
	// path, and its arguments.
	ResumeCmd func(path string) (program string, args []string)

	// PartNamed, Part and PartReason are Parter's, nil where no file of
	// the format is a part of another session: PartNamed is PartName (no
	// IO), Part reports whether the file at path is a part, which
	// PartOf says with PartReason.
	PartNamed  func(base string) bool
	Part       func(path string) bool
	PartReason string
	// CompanionsOf is CompanionFiles (Companions); nil for none.
	CompanionsOf func(path string) []string
}

func (r *ReadOnly) Format() Format   { return r.Name }
func (r *ReadOnly) Wording() Wording { return r.Words }
func (r *ReadOnly) ImportFormat() string {
	if r.Import == "" {
		return string(r.Name)
	}
	return r.Import
}

func (r *ReadOnly) Claims(path string) bool {
	return r.ClaimsPath(path)
}

// Detect is false for a format with no DetectLine.
func (r *ReadOnly) Detect(line []byte, first bool) bool {
	return r.DetectLine != nil && r.DetectLine(line, first)
}

func (r *ReadOnly) Roots(e Env) []string                  { return r.RootsOf(e) }
func (r *ReadOnly) Resume(path string) (string, []string) { return r.ResumeCmd(path) }

// PartName is false, and PartOf nil, for a format with no parts: the
// list asks a Parter first, and such a one says what a format that is
// none would.
func (r *ReadOnly) PartName(base string) bool {
	return r.PartNamed != nil && r.PartNamed(base)
}

func (r *ReadOnly) PartOf(path string) error {
	if r.Part != nil && r.Part(path) {
		return &PartOfSession{Reason: r.PartReason}
	}
	return nil
}

func (r *ReadOnly) CompanionFiles(path string) []string {
	if r.CompanionsOf == nil {
		return nil
	}
	return r.CompanionsOf(path)
}

// ReadOnlyFile is the backend of a format skein only reads whose session
// is one file parsed whole (Claude Code's logs, Codex's rollouts, Qwen
// Code's chats...): ReadOnly's words and rules, and WholeFile's reading.
// An agent's package registers a pointer to one, said in a struct
// literal, and adds a method of its own where it has one (Cline's Check,
// Dhara 0.5's Open) by embedding that pointer in a type of its own.
type ReadOnlyFile[S ParsedFile] struct {
	ReadOnly
	WholeFile[S]
}

// RootFrom is the Roots of an agent that keeps its sessions in one folder,
// which dir finds as the agent does: from its environment variables
// (getenv), the home folder, and a path the user set, expanded as a shell
// would (a leading ~, relative to the working folder).
func RootFrom(dir func(getenv func(string) string, home string, expand func(string) string) string) func(Env) []string {
	return func(e Env) []string {
		return []string{dir(os.Getenv, e.Home, func(p string) string { return e.Expand(p, e.WorkingDirPath) })}
	}
}

// EnvDir is a folder of an agent's found as most agents find theirs: sub
// under the folder the environment variable env names when it is set
// (expanded by expand, as the agent expands it; nil takes it as it is),
// else sub under fallback (the agent's folder in the home folder).
func EnvDir(getenv func(string) string, expand func(string) string, env, fallback string, sub ...string) string {
	d := getenv(env)
	if d == "" {
		return filepath.Join(append([]string{fallback}, sub...)...)
	}
	if expand != nil {
		d = expand(d)
	}
	if len(sub) == 0 {
		return d
	}
	return filepath.Join(append([]string{d}, sub...)...)
}

// ReadSubFiles reads the files at paths that a session whose own file is
// at path is read with (its sub-agents' logs), each whole and only when it
// is a regular file, and makes each into an A with file (given its name,
// its path and its bytes). A file's name is its path from the session
// file's folder, with forward slashes, unless name gives another. One that
// cannot be read is left out, and a warning that names it says so ("<what>
// left out: <why>"): the session is read without it.
func ReadSubFiles[A any](path string, paths []string, what string, name func(p string) string, file func(name, p string, data []byte) A) ([]A, []model.Diagnostic) {
	var out []A
	var problems []model.Diagnostic
	dir := filepath.Dir(path)
	for _, p := range paths {
		var n string
		if name != nil {
			n = name(p)
		} else if rel, err := filepath.Rel(dir, p); err == nil {
			n = filepath.ToSlash(rel)
		} else {
			n = filepath.ToSlash(p)
		}
		b, err := readfile.Regular(p)
		if err != nil {
			problems = append(problems, model.Diagnostic{File: n, Warning: true, Msg: what + " left out: " + err.Error()})
			continue
		}
		out = append(out, file(n, p, b))
	}
	return out, problems
}

// IsRegularFile reports whether path names a regular file, through links:
// a session's own file that is there to show a part of it with (a
// sub-agent's log beside its session's), a file a format reads beside it.
func IsRegularFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
