package store_test

import (
	"os"
	"path/filepath"
	"reflect"
	"skein/store"
	"strings"
	"sync"
	"testing"

	"skein/internal/synth"
)

// copyStore copies the fixture store to a folder of its own.
func copyStore(t *testing.T) (string, []string) {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("..", "testdata", "pi", "store")
	err := synth.CopyTree(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dst, "notes.jsonl"), []byte("{\"type\":\"user\"}\n"), 0o644)
	files, err := store.Discover([]string{dst})
	if err != nil {
		t.Fatal(err)
	}
	return dst, files
}

// listWith lists files through a cache in dir (nil dir: none), and says how
// many files were read whole and in part.
func listWith(t *testing.T, dir string, files []string) (infos []store.Info, problems []store.Problem, full, part int) {
	t.Helper()
	if dir != "" {
		c := store.OpenCache(dir)
		store.UseCache(c)
		defer func() {
			c.Save()
			store.UseCache(nil)
		}()
	}
	f0, p0 := store.FullReads.Load(), store.PartReads.Load()
	infos, problems = store.List(files, nil)
	return infos, problems, int(store.FullReads.Load() - f0), int(store.PartReads.Load() - p0)
}

func sameList(t *testing.T, got, want []store.Info) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Created != w.Created && !(g.Created != g.Created && w.Created != w.Created) {
			t.Fatalf("%s: created %v, want %v", g.Path, g.Created, w.Created)
		}
		g.Created, w.Created = 0, 0
		if len(g.IDJSON) == 0 && len(w.IDJSON) == 0 {
			g.IDJSON, w.IDJSON = nil, nil
		}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("record %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

func appendLine(t *testing.T, path, line string) {
	t.Helper()
	if err := synth.AppendLine(path, line); err != nil {
		t.Fatal(err)
	}
}

// The index: a warm list reads no file; after an agent appends to two
// sessions, only those two are read, from where the index stopped, and
// the list is what a list without the index gives; a file changed in
// place or cut short is read again whole.
func TestListIndex(t *testing.T) {
	_, files := copyStore(t)
	cache := t.TempDir()
	want, wantProblems, _, _ := listWith(t, "", files)
	got, problems, full, _ := listWith(t, cache, files)
	sameList(t, got, want)
	if full != len(files) || len(problems) != len(wantProblems) {
		t.Fatalf("cold: %d files read, %d problems; want %d and %d", full, len(problems), len(files), len(wantProblems))
	}
	got, problems, full, part := listWith(t, cache, files)
	sameList(t, got, want)
	if full != 0 || part != 0 || len(problems) != len(wantProblems) {
		t.Fatalf("warm: %d read whole, %d in part, %d problems", full, part, len(problems))
	}

	// An agent appends to two sessions.
	var grown []string
	for _, in := range want {
		if len(grown) < 2 && in.Entries > 0 && !strings.Contains(in.Path, "broken") {
			grown = append(grown, in.Path)
		}
	}
	for i, p := range grown {
		appendLine(t, p, `{"type":"message","id":"feed000`+string(rune('1'+i))+`","parentId":null,"timestamp":"2026-12-01T10:00:00.000Z","message":{"role":"user","content":"appended","timestamp":1796119200000}}`)
	}
	want, _, _, _ = listWith(t, "", files)
	got, _, full, part = listWith(t, cache, files)
	sameList(t, got, want)
	if full != 0 || part != 2 {
		t.Fatalf("after two appends: %d read whole, %d in part; want 0 and 2", full, part)
	}
	for _, in := range got {
		for _, p := range grown {
			if in.Path == p && in.Modified != 1796119200000 {
				t.Errorf("%s: modified %v, want the appended message's time", p, in.Modified)
			}
		}
	}

	// A line written in two parts: the first part is not kept as a line.
	appendLine(t, grown[0], "")
	f, _ := os.OpenFile(grown[0], os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"session_info","id":"feed0009","parentId":"feed0001","timestamp":"2026-12-01T10:00:01.000Z",`)
	f.Close()
	want, _, _, _ = listWith(t, "", files)
	got, _, _, _ = listWith(t, cache, files)
	sameList(t, got, want)
	appendLine(t, grown[0], `"name":"named at last"}`)
	want, _, _, _ = listWith(t, "", files)
	got, _, full, part = listWith(t, cache, files)
	sameList(t, got, want)
	if full != 0 || part != 1 {
		t.Errorf("a line finished: %d read whole, %d in part", full, part)
	}

	// Changed in place (same size) and cut short: read again whole.
	data, _ := os.ReadFile(grown[1])
	changed := []byte(strings.Replace(string(data), "appended", "APPENDED", 1))
	os.WriteFile(grown[1], changed, 0o644)
	os.WriteFile(grown[0], data[:len(data)/2], 0o644)
	want, _, _, _ = listWith(t, "", files)
	got, _, full, _ = listWith(t, cache, files)
	sameList(t, got, want)
	if full != 2 {
		t.Errorf("changed and cut: %d read whole, want 2", full)
	}
}

// A corrupt, truncated or foreign index is an empty one: the list is right.
func TestCorruptIndex(t *testing.T) {
	_, files := copyStore(t)
	want, _, _, _ := listWith(t, "", files)
	cache := t.TempDir()
	listWith(t, cache, files)
	idx := filepath.Join(cache, "list.idx")
	good, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"truncated": good[:len(good)/2],
		"flipped":   append(append([]byte(nil), good[:len(good)-10]...), good[len(good)-9]^0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9),
		"garbage":   []byte("not an index at all"),
		"empty":     nil,
		"older":     append([]byte("skein-list-index\x00\x00"), good[len(store.CacheMagic):]...),
	} {
		os.WriteFile(idx, bad, 0o644)
		got, _, full, _ := listWith(t, cache, files)
		sameList(t, got, want)
		if full != len(files) {
			t.Errorf("%s: %d files read whole, want all %d", name, full, len(files))
		}
	}
}

// Several skein processes listing and saving at once never leave an index
// that lists wrong.
func TestIndexWritersAtOnce(t *testing.T) {
	_, files := copyStore(t)
	want, _, _, _ := listWith(t, "", files)
	cache := t.TempDir()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 10 {
				c := store.OpenCache(cache) // a process of its own
				for _, f := range files[(w+i)%len(files):] {
					b := store.FindBackend(f)
					_, _, state, _ := store.ListBy(b, f, c.Get(f))
					if state != nil {
						c.Put(f, state)
					}
				}
				c.Save()
			}
		})
	}
	wg.Wait()
	got, _, _, _ := listWith(t, cache, files)
	sameList(t, got, want)
	if entries, _ := os.ReadDir(cache); len(entries) != 1 {
		t.Errorf("%d files in the cache folder, want the index alone", len(entries))
	}
}

// A file indexed cold while its last line is half written: the half is not
// kept, and the line, once finished, is read.
func TestIndexColdOnAHalfLine(t *testing.T) {
	_, files := copyStore(t)
	var path string
	for _, f := range files {
		if strings.Contains(f, "webapp") {
			path = f
			break
		}
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"session_info","id":"feed0009","parentId":null,"timestamp":"2026-12-01T10:00:01.000Z",`)
	f.Close()
	cache := t.TempDir()
	listWith(t, cache, files)
	appendLine(t, path, `"name":"named at last"}`)
	want, _, _, _ := listWith(t, "", files)
	got, _, full, part := listWith(t, cache, files)
	sameList(t, got, want)
	if full != 0 || part != 1 {
		t.Errorf("%d read whole, %d in part", full, part)
	}
	found := false
	for _, in := range got {
		found = found || in.Path == path && in.Name == "named at last"
	}
	if !found {
		t.Error("the finished line's name is not listed")
	}
}
