//go:build linux

package search

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"skein/store"
)

// secretSession writes a pi session whose first message holds secret, and
// enough messages after it that the message lies outside the last 4 KB
// the change token hashes.
func secretSession(t *testing.T, dir, secret string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(hdr + "\n")
	b.WriteString(msgLine("m0000", "", "my password is "+secret) + "\n")
	for i := 1; i < 40; i++ {
		b.WriteString(msgLine(fmt.Sprintf("m%04d", i), fmt.Sprintf("m%04d", i-1), "filler "+strings.Repeat("wombat ", 30)) + "\n")
	}
	return writeSession(t, dir, "secret.jsonl", b.String())
}

// overwriteInPlace writes repl over the first old in path without changing
// its size, then puts its modification time back (dd conv=notrunc, then
// touch -r): only the inode's change time says the file changed. The test
// is skipped where that time did not move.
func overwriteInPlace(t *testing.T, path, old, repl string) {
	t.Helper()
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	at := strings.Index(string(data), old)
	if at < 0 || len(old) != len(repl) {
		t.Fatalf("%q not in %s", old, path)
	}
	// A change time is as fine as the kernel's clock tick: let one pass.
	time.Sleep(20 * time.Millisecond)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(repl), int64(at)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(path, before.ModTime(), before.ModTime()); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(path)
	if after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		t.Fatalf("size or time moved: %v %v -> %v %v", before.Size(), before.ModTime(), after.Size(), after.ModTime())
	}
	if !ctimeMoved(before, after) {
		t.Skip("the file system did not move the change time")
	}
}

// A session changed in place, keeping its size and modification time
// (a secret masked with dd conv=notrunc and touch -r): the list shows its
// new first message and the search finds the new word and not the old,
// as they do without the indexes.
func TestIndexesSeeAnInPlaceChange(t *testing.T) {
	dir := t.TempDir()
	path := secretSession(t, dir, "hunter2")
	files := []string{path}
	cache := t.TempDir()
	list := func() store.Info {
		t.Helper()
		c := store.OpenCache(cache)
		store.UseCache(c)
		defer func() {
			c.Save()
			store.UseCache(nil)
		}()
		infos, problems := store.List(files, nil)
		if len(infos) != 1 || len(problems) != 0 {
			t.Fatalf("%d listed, problems %v", len(infos), problems)
		}
		return infos[0]
	}
	idx := filepath.Join(cache, "text")
	search := func(word string) []Hit {
		t.Helper()
		x := OpenIndex(idx)
		defer x.Close()
		q, _ := Parse(word)
		return Files(x, q, files, 0, false, nil)
	}
	if in := list(); !strings.Contains(in.FirstMessage, "hunter2") {
		t.Fatalf("first message %q", in.FirstMessage)
	}
	if h := search("hunter2"); len(h) != 1 {
		t.Fatalf("hunter2: %d hits before the change", len(h))
	}
	overwriteInPlace(t, path, "hunter", "XXXXXX")
	if in := list(); !strings.Contains(in.FirstMessage, "XXXXXX2") {
		t.Errorf("the list still shows %q", in.FirstMessage)
	}
	for word, want := range map[string]int{"hunter2": 0, "XXXXXX2": 1} {
		q, _ := Parse(word)
		if got, off := search(word), Files(nil, q, files, 0, false, nil); len(got) != want || len(off) != want {
			t.Errorf("%s: %d hits through the index, %d without; want %d", word, len(got), len(off), want)
		}
	}
}

// ctimeMoved reports whether the inode's change time moved from a to b.
func ctimeMoved(a, b os.FileInfo) bool {
	sa, sb := a.Sys().(*syscall.Stat_t), b.Sys().(*syscall.Stat_t)
	return sa.Ctim != sb.Ctim
}
