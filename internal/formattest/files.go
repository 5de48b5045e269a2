package formattest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ReadFile is the file at path, or the test's end.
func ReadFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Names are the names in dir that contain part ("" for every name), in
// the order of os.ReadDir (by name); nil for none.
func Names(t testing.TB, dir, part string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		if strings.Contains(de.Name(), part) {
			out = append(out, de.Name())
		}
	}
	return out
}

// Indexer finds an entry by its id.
type Indexer interface {
	Index(id string) (int, bool)
}

// Index is the entry whose id is id, or the test's end.
func Index(t testing.TB, s Indexer, id string) int {
	t.Helper()
	i, ok := s.Index(id)
	if !ok {
		t.Fatalf("no entry %q", id)
	}
	return i
}

// OneFile is the one path that pattern (filepath.Glob's) matches, or the
// test's end when it matches none or several.
func OneFile(t testing.TB, pattern string) string {
	t.Helper()
	m, _ := filepath.Glob(pattern)
	if len(m) != 1 {
		t.Fatalf("%s: %d files %q", pattern, len(m), m)
	}
	return m[0]
}

// Listed are the records that list (store.List) makes of the files that
// discover (store.Discover) finds under root, or the test's end: root
// must be one of roots (a home's default roots) unless roots is nil, and
// there must be n records and no problem.
func Listed[I, P any](t testing.TB, discover func(roots []string) ([]string, error), list func(files []string, progress func(done, total int)) ([]I, []P), roots []string, root string, n int) []I {
	t.Helper()
	if roots != nil && !slices.Contains(roots, root) {
		t.Fatalf("default roots %v lack %s", roots, root)
	}
	files, err := discover([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	infos, problems := list(files, nil)
	if len(problems) > 0 || len(infos) != n {
		t.Fatalf("%d listed, want %d: %+v %v", len(infos), n, infos, problems)
	}
	return infos
}
