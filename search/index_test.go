package search

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"skein/internal/synth"
	"skein/store"
)

// fixtures copies the pi fixtures to a folder of the test's and lists them.
func fixtures(t *testing.T) (dir string, files []string) {
	t.Helper()
	dir = t.TempDir()
	if err := synth.CopyTree("../testdata/pi", dir); err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return dir, files
}

// brute is the search without an index: every file read and searched.
func brute(t *testing.T, q *Query, files []string) []Hit {
	s := New(q)
	for _, f := range files {
		if sess, err := store.Open(f); err == nil {
			s.Add(sess)
		}
	}
	return s.Hits(0)
}

func show(h []Hit) string {
	var b strings.Builder
	for _, x := range h {
		fmt.Fprintf(&b, "%s %s %s %.6f %q %v\n", filepath.Base(x.Path), x.EntryID, x.Role, x.Score, x.Snippet, x.Matches)
	}
	return b.String()
}

// queries are words from the fixtures' text and every kind of term.
var indexQueries = []string{
	"the", "file", "read", "Error", "bash", "pi", "session", "test", "wombat",
	"the file", "read bash", "a the", "compaction summary", "tool",
	`"the file"`, `"read the"`, `"no such"`, `"it is"`,
	`re:[Ee]rror`, `re:\d{3,}`, `re:wombat-\d+`, `re:the\s+file`, `re:[a-z]{12}`, `re:(?i)SESSION`,
	"role:user the", "role:assistant file", "role:system you", "role:toolResult error",
	"tool:bash", "tool:read the", "tool:write", "cwd:/ the", "cwd:/nowhere the",
	`the re:e\w`, `"the file" read`, "ü", "_", "x",
}

func sameHits(t *testing.T, query string, got, want []Hit) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d hits through the index, %d without\nindex:\n%s\nwithout:\n%s", query, len(got), len(want), show(got), show(want))
		return
	}
	for i := range got {
		g, w := got[i], want[i]
		if math.Abs(g.Score-w.Score) > 1e-9*math.Max(1, math.Abs(w.Score)) {
			t.Errorf("%s: hit %d scored %v, want %v", query, i, g.Score, w.Score)
		}
		g.Score, w.Score = 0, 0
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: hit %d\n index: %+v\nwithout: %+v", query, i, g, w)
			return
		}
	}
}

// The index gives what reading every file gives: the same messages in
// the same order with the same scores and snippets, for every kind of
// query, cold and warm.
func TestIndexEqualsReading(t *testing.T) {
	_, files := fixtures(t)
	idx := t.TempDir()
	for round := range 2 {
		x := OpenIndex(idx)
		if err := x.Update(files, nil); err != nil {
			t.Fatal(err)
		}
		if round == 1 && x.Reads+x.PartReads != 0 {
			t.Errorf("warm: %d files read whole and %d in part, want none", x.Reads, x.PartReads)
		}
		for _, query := range indexQueries {
			q, err := Parse(query)
			if err != nil {
				t.Fatal(err)
			}
			sameHits(t, query, x.Search(q, files, 0), brute(t, q, files))
			if got, want := x.Search(q, files, 3), brute(t, q, files); len(want) > 3 {
				sameHits(t, query+" (limit 3)", got, want[:3])
			}
		}
		if err := x.Save(); err != nil {
			t.Fatal(err)
		}
		x.Close()
	}
}
