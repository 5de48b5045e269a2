package store

import (
	"os"
	"path/filepath"

	"skein/internal/readfile"
	"skein/model"
)

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
