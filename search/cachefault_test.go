//go:build unix

package search

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"skein/internal/cachefile"
)

// searchWithin is a search through the index in idx in bounded time: one
// that waits on the cache folder fails the test instead of hanging it.
func searchWithin(t *testing.T, idx string, q *Query, files []string) []Hit {
	t.Helper()
	done := make(chan []Hit, 1)
	go func() {
		x := OpenIndex(idx)
		defer x.Close()
		done <- Files(x, q, files, 0, false, nil)
	}()
	select {
	case hits := <-done:
		return hits
	case <-time.After(30 * time.Second):
		t.Fatal("the search waits on its index")
		return nil
	}
}

// Any file the text index opens (its manifest, a segment, its lock, the
// folder itself) made a named pipe, which would block a read forever: the
// search finishes, finds what reading every file finds, and the name is
// a regular file (or gone) afterwards.
func TestIndexNotARegularFile(t *testing.T) {
	_, files := fixtures(t)
	files = files[:6]
	q, _ := Parse("the file")
	want := brute(t, q, files)
	for _, at := range []string{"manifest", "segment", lockName, "folder"} {
		cache := t.TempDir()
		idx := filepath.Join(cache, "text")
		x := OpenIndex(idx)
		if err := x.Update(files, nil); err != nil {
			t.Fatal(err)
		}
		x.Close()
		name := filepath.Join(idx, at)
		switch at {
		case "segment":
			segs, _ := filepath.Glob(filepath.Join(idx, "seg-*.ft"))
			if len(segs) != 1 {
				t.Fatalf("%d segments", len(segs))
			}
			name = segs[0]
		case "folder":
			name = idx
			os.RemoveAll(idx)
		}
		os.Remove(name)
		if err := syscall.Mkfifo(name, 0o600); err != nil {
			t.Skip("no named pipes here:", err)
		}
		sameHits(t, at+" a named pipe", searchWithin(t, idx, q, files), want)
		if st, err := os.Lstat(name); err == nil && st.Mode()&os.ModeNamedPipe != 0 {
			t.Errorf("%s: still a named pipe", at)
		}
		// And the next search is through a whole index again.
		x = OpenIndex(idx)
		if err := x.Update(files, nil); err != nil {
			t.Fatal(err)
		}
		if x.Reads+x.PartReads != 0 {
			t.Errorf("%s: the next run read %d files", at, x.Reads+x.PartReads)
		}
		sameHits(t, at+" a named pipe, next run", x.Search(q, files, 0), want)
		x.Close()
	}
}

// cacheSize is the bytes of the files in dir.
func cacheSize(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	names, _ := os.ReadDir(dir)
	for _, e := range names {
		if st, err := e.Info(); err == nil {
			n += st.Size()
		}
	}
	return n
}

// Twelve processes indexing the same store at once (here, twelve indexes
// of their own, as twelve processes have) leave one index, not twelve:
// the cache is no larger than one process alone leaves, and each search
// finds what reading every file finds.
func TestIndexBuildersAtOnce(t *testing.T) {
	_, files := fixtures(t)
	q, _ := Parse("the file")
	want := brute(t, q, files)
	alone := t.TempDir()
	x := OpenIndex(alone)
	Files(x, q, files, 0, false, nil)
	x.Close()
	idx := t.TempDir()
	var wg sync.WaitGroup
	got := make([][]Hit, 12)
	for i := range got {
		wg.Go(func() {
			x := OpenIndex(idx)
			defer x.Close()
			got[i] = Files(x, q, files, 0, false, nil)
		})
	}
	wg.Wait()
	for i := range got {
		sameHits(t, fmt.Sprintf("builder %d", i), got[i], want)
	}
	if n, one := cacheSize(t, idx), cacheSize(t, alone); n > one+one/10 {
		t.Errorf("twelve builders left %d bytes in the cache, one alone %d", n, one)
	}
}

// snapshot is every file in dir, by name.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	names, _ := os.ReadDir(dir)
	for _, e := range names {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// wholeIndex checks that every segment in idx is whole (its dictionary
// found by its footer and checked), and that the manifest, when it is not
// old, names only whole blobs.
func wholeIndex(t *testing.T, idx string, old map[string][]byte, what string) {
	t.Helper()
	x := OpenIndex(idx)
	defer x.Close()
	names, _ := os.ReadDir(idx)
	for _, e := range names {
		name := e.Name()
		switch {
		case name == "manifest" || name == lockName:
		case strings.HasPrefix(name, "seg-") && strings.HasSuffix(name, ".ft"):
			data, err := os.ReadFile(filepath.Join(idx, name))
			if _, derr := segDict(data); err != nil || derr != nil {
				t.Fatalf("%s: %s is not a whole segment", what, name)
			}
		default:
			t.Fatalf("%s: %s left in the folder", what, name)
		}
	}
	manifest, err := os.ReadFile(filepath.Join(idx, "manifest"))
	if err != nil || bytes.Equal(manifest, old["manifest"]) {
		return
	}
	if _, ok := decodeManifest(manifest); !ok {
		t.Fatalf("%s: the manifest is neither the old one nor a whole new one", what)
	}
	for p, e := range x.entries {
		for _, r := range e.parts {
			b, _, err := x.blobOf(r)
			if err == nil {
				err = b.verifyAll()
			}
			if err != nil {
				t.Fatalf("%s: the new manifest names a blob of %s that is not whole: %v", what, p, err)
			}
		}
	}
}

// A write of the text index that fails after any number of bytes (a full
// disk: its scratch file, its segment, its manifest) leaves the old index
// or the new one, whole, and no other file; the search of that run and of
// the next find what reading every file finds.
func TestIndexWriteFaults(t *testing.T) {
	dir := t.TempDir()
	files := []string{
		writeSession(t, dir, "a.jsonl", hdr+"\n"+msgLine("a1", "", "the wombat grazes")+"\n"),
		writeSession(t, dir, "b.jsonl", hdr+"\n"+msgLine("b1", "", "the wombat sleeps")+"\n"),
	}
	idx := t.TempDir()
	x := OpenIndex(idx)
	if err := x.Update(files, nil); err != nil {
		t.Fatal(err)
	}
	x.Close()
	old := snapshot(t, idx)
	// One file grows, one is new: the next run writes a segment of two
	// blobs and a manifest.
	appendLine(t, files[0], msgLine("a2", "a1", "the wombat wakes"))
	files = append(files, writeSession(t, dir, "c.jsonl", hdr+"\n"+msgLine("c1", "", "a wombat dreams")+"\n"))
	queries := []string{"wombat", "wakes", `"wombat dreams"`}
	want := map[string][]Hit{}
	for _, query := range queries {
		q, _ := Parse(query)
		want[query] = brute(t, q, files)
	}
	restoreIndex := func() {
		os.RemoveAll(idx)
		os.Mkdir(idx, 0o700)
		for name, b := range old {
			os.WriteFile(filepath.Join(idx, name), b, 0o600)
		}
	}
	q, _ := Parse(queries[0])
	stop := cachefile.Record()
	x = OpenIndex(idx)
	Files(x, q, files, 0, false, nil)
	x.Close()
	writes := stop()
	if len(writes) < 4 {
		t.Fatalf("the run wrote %v: not a scratch file of three blobs, a segment and a manifest", writes)
	}
	// Every byte count would be a thousand runs of a few syncs each: the
	// counts where what a failure leaves changes, and every 16th between.
	points := cachefile.FailPoints(writes, 16)
	total := points[len(points)-1]
	for _, n := range points {
		restoreIndex()
		what := fmt.Sprintf("fail after %d of %d bytes", n, total)
		restore := cachefile.FailAfter(n)
		x := OpenIndex(idx)
		got := Files(x, q, files, 0, false, nil)
		x.Close()
		restore()
		sameHits(t, what, got, want[queries[0]])
		wholeIndex(t, idx, old, what)
		// The next run, through what is there.
		x = OpenIndex(idx)
		for _, query := range queries {
			q, _ := Parse(query)
			sameHits(t, what+", next run: "+query, Files(x, q, files, 0, false, nil), want[query])
		}
		x.Close()
		if t.Failed() {
			break
		}
	}
}
