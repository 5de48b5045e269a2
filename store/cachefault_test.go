//go:build unix

package store_test

import (
	"bytes"
	"os"
	"path/filepath"
	"skein/store"
	"strings"
	"syscall"
	"testing"
	"time"

	"skein/internal/cachefile"
)

// listWithin is listWith in bounded time: a list that waits on the cache
// folder fails the test instead of hanging it.
func listWithin(t *testing.T, cache string, files []string) []store.Info {
	t.Helper()
	done := make(chan []store.Info, 1)
	go func() {
		c := store.OpenCache(cache)
		store.UseCache(c)
		infos, _ := store.List(files, nil)
		c.Save()
		store.UseCache(nil)
		done <- infos
	}()
	select {
	case got := <-done:
		return got
	case <-time.After(30 * time.Second):
		t.Fatal("the list waits on its index")
		return nil
	}
}

// A list.idx that is not a regular file (a named pipe, which would block
// the read forever; a link, to a pipe or to a file skein did not make; a
// folder; the cache folder a pipe) is no index: the list is right, in
// bounded time, and its index is written as a regular file in its place,
// never through the link.
func TestListIndexNotARegularFile(t *testing.T) {
	_, files := copyStore(t)
	want, _, _, _ := listWith(t, "", files)
	other := filepath.Join(t.TempDir(), "not skein's")
	os.WriteFile(other, []byte("keep me"), 0o600)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	for name, make := range map[string]func(p string) error{
		"a named pipe":      func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"a link to a pipe":  func(p string) error { return os.Symlink(fifo, p) },
		"a link to a file":  func(p string) error { return os.Symlink(other, p) },
		"a dangling link":   func(p string) error { return os.Symlink(p+".gone", p) },
		"an empty folder":   func(p string) error { return os.Mkdir(p, 0o700) },
		"a link to itself":  func(p string) error { return os.Symlink(p, p) },
		"a regular file ok": func(p string) error { return os.WriteFile(p, []byte("garbage"), 0o600) },
	} {
		cache := t.TempDir()
		idx := filepath.Join(cache, "list.idx")
		if err := make(idx); err != nil {
			t.Fatal(err)
		}
		sameList(t, listWithin(t, cache, files), want)
		if st, err := os.Lstat(idx); err != nil || !st.Mode().IsRegular() {
			t.Errorf("%s: list.idx is %v after a list (%v)", name, st.Mode(), err)
		}
		got, _, full, _ := listWith(t, cache, files)
		sameList(t, got, want)
		if full != 0 {
			t.Errorf("%s: the index written in its place is not used: %d read whole", name, full)
		}
	}
	// The cache folder itself a named pipe.
	cache := filepath.Join(t.TempDir(), "skein")
	if err := syscall.Mkfifo(cache, 0o600); err != nil {
		t.Fatal(err)
	}
	sameList(t, listWithin(t, cache, files), want)
	if st, err := os.Lstat(filepath.Join(cache, "list.idx")); err != nil || !st.Mode().IsRegular() {
		t.Errorf("the folder a pipe was: no index written in it (%v)", err)
	}
	if b, _ := os.ReadFile(other); string(b) != "keep me" {
		t.Errorf("a file the link named was written: %q", b)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe a link named is gone")
	}
}

// A write of the list's index that fails after any number of bytes (a
// full disk) leaves the old index or the new one, whole, and nothing else
// in the folder; the next list is what a list without the index gives.
func TestListIndexWriteFaults(t *testing.T) {
	_, all := copyStore(t)
	var files []string
	for _, f := range all {
		if st, err := os.Stat(f); err == nil && st.Size() < 8<<10 && len(files) < 4 {
			files = append(files, f)
		}
	}
	cache := t.TempDir()
	idx := filepath.Join(cache, "list.idx")
	listWith(t, cache, files)
	old, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	appendLine(t, files[0], `{"type":"message","id":"feed0001","parentId":null,"timestamp":"2026-12-01T10:00:00.000Z","message":{"role":"user","content":"appended","timestamp":1796119200000}}`)
	want, _, _, _ := listWith(t, "", files)
	w0 := cachefile.Written()
	listWith(t, cache, files)
	total := cachefile.Written() - w0
	if total == 0 {
		t.Fatal("the list wrote no index")
	}
	for n := int64(0); n <= total; n++ {
		os.WriteFile(idx, old, 0o600)
		restore := cachefile.FailAfter(n)
		got, _, _, _ := listWith(t, cache, files)
		restore()
		sameList(t, got, want)
		now, err := os.ReadFile(idx)
		if err != nil {
			t.Fatalf("fail after %d bytes: %v", n, err)
		}
		if !bytes.Equal(now, old) {
			if _, ok := store.DecodeCache(now); !ok || n < total {
				t.Fatalf("fail after %d of %d bytes: list.idx is neither the old index nor a whole new one", n, total)
			}
		}
		if names, _ := os.ReadDir(cache); len(names) != 1 {
			var left []string
			for _, e := range names {
				left = append(left, e.Name())
			}
			t.Fatalf("fail after %d bytes: the folder holds %s", n, strings.Join(left, ", "))
		}
		// The next run, through what is there (not saved: the next byte
		// count starts from the old index again).
		store.UseCache(store.OpenCache(cache))
		got, _ = store.List(files, nil)
		store.UseCache(nil)
		sameList(t, got, want)
	}
}
