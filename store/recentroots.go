package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"skein/internal/cachefile"
)

// The folders a user named to a command (`skein session list DIR`, `skein
// search … DIR`) are remembered in the cache folder, newest first, so that
// an id such a list printed resolves afterwards without the folder being
// named again. A few are kept: the list is a convenience, not an index.
const recentRootsFile, recentRootsMax = "roots", 16

// RememberRoots adds the folders among paths (a file's folder for a file)
// to the remembered ones; a failure is ignored (nothing depends on it).
func RememberRoots(env Env, paths []string) {
	if len(paths) == 0 {
		return
	}
	var add []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if st, err := os.Stat(abs); err != nil {
			continue
		} else if !st.IsDir() || isSessionDir(abs) {
			abs = filepath.Dir(abs)
		}
		if !slices.Contains(add, abs) && !slices.Contains(env.DefaultRoots(), abs) {
			add = append(add, abs)
		}
	}
	if len(add) == 0 {
		return
	}
	old := RememberedRoots(env)
	roots := append(add, slices.DeleteFunc(old, func(r string) bool { return slices.Contains(add, r) })...)
	if len(roots) > recentRootsMax {
		roots = roots[:recentRootsMax]
	}
	if slices.Equal(roots, old) {
		return
	}
	dir := CacheDir(env)
	if cachefile.MkdirAll(dir) != nil {
		return
	}
	f, err := cachefile.Create(dir, recentRootsFile)
	if err != nil {
		return
	}
	if _, err := f.Write([]byte(strings.Join(roots, "\n") + "\n")); err != nil {
		f.Discard()
		return
	}
	f.Commit(filepath.Join(dir, recentRootsFile))
}

// RememberedRoots are the remembered folders that still exist, newest
// first.
func RememberedRoots(env Env) []string {
	data, err := cachefile.ReadFile(filepath.Join(CacheDir(env), recentRootsFile))
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if !filepath.IsAbs(line) {
			continue
		}
		if st, err := os.Stat(line); err == nil && st.IsDir() {
			out = append(out, line)
		}
	}
	return out
}

// ResolveAnywhere is Resolve under roots, then, for a REF none of them
// holds, under the remembered folders.
func ResolveAnywhere(ref string, roots []string, env Env) (string, error) {
	path, err := Resolve(ref, roots)
	var nf *NotFoundError
	if err == nil || !errors.As(err, &nf) || len(nf.Candidates) > 0 || strings.ContainsRune(ref, os.PathSeparator) {
		return path, err
	}
	if more := RememberedRoots(env); len(more) > 0 {
		if p, err2 := Resolve(ref, more); err2 == nil {
			return p, nil
		} else if errors.As(err2, &nf) && len(nf.Candidates) > 0 {
			return "", err2
		}
	}
	return "", err
}
