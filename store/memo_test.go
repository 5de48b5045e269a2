package store_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"skein/internal/cachefile"
	"skein/internal/stamp"
	"skein/store"
)

// settled moves the clock on, so that files written by the test count as
// changed long enough ago to be trusted by their stats.
func settled(t *testing.T) {
	now := stamp.NowNs
	stamp.NowNs = func() int64 { return now() + 10*stamp.Slack }
	t.Cleanup(func() { stamp.NowNs = now })
}

// memoGet is the memo's bytes for path, nil when it has none for the file
// as it is.
func memoGet(m *store.Memo, path string) []byte {
	data, ok := m.Get(path)
	if !ok {
		return nil
	}
	return data
}

// stampOf is the stamp of the session at path as it is read.
func stampOf(t *testing.T, path string) store.MemoStamp {
	t.Helper()
	_, st, err := store.OpenStamped(path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A memo kept for a session is given back by the next process while the
// file stays as it was, and not once it changed; a file written within the
// clock's slack is not kept at all.
func TestMemoValidWhileFileStatsTheSame(t *testing.T) {
	dir, files := copyStore(t)
	cache := filepath.Join(dir, "cache")
	a, b := files[0], files[1]

	m := store.OpenMemo(cache, "test")
	if memoGet(m, a) != nil {
		t.Fatal("an empty memo holds something")
	}
	st := stampOf(t, a) // not settled: the file was just written
	m.Put(st, []byte("fresh"))
	m.Save()
	if memoGet(store.OpenMemo(cache, "test"), a) != nil {
		t.Error("bytes of a file changed within the clock's slack were kept")
	}

	settled(t)
	m = store.OpenMemo(cache, "test")
	for _, f := range []string{a, b} {
		st := stampOf(t, f)
		m.Put(st, []byte("of "+filepath.Base(f)))
	}
	if err := m.Save(); err != nil {
		t.Fatal(err)
	}
	m = store.OpenMemo(cache, "test")
	if got := memoGet(m, a); string(got) != "of "+filepath.Base(a) {
		t.Errorf("kept %q", got)
	}
	f, _ := os.OpenFile(a, os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte("\n"))
	f.Close()
	if got := memoGet(m, a); got != nil {
		t.Errorf("a file that grew gives %q", got)
	}
	if got := memoGet(m, b); string(got) != "of "+filepath.Base(b) {
		t.Errorf("the other file's: %q", got)
	}
	// A file put back as it was, size and time, is another change: its
	// status-change time moved.
	st0, _ := os.Stat(b)
	data, _ := os.ReadFile(b)
	os.WriteFile(b, bytes.ToUpper(data), 0o644)
	os.Chtimes(b, st0.ModTime(), st0.ModTime())
	if got := memoGet(m, b); got != nil {
		t.Errorf("a file rewritten in place with its time put back gives %q", got)
	}
}

// Two processes that save at once each keep what the other learned: the
// second Save reads the memo the first one wrote and adds its entries,
// dropping those of sessions no longer there.
func TestMemoSavesMerge(t *testing.T) {
	dir, files := copyStore(t)
	settled(t)
	cache := filepath.Join(dir, "cache")
	p1, p2 := store.OpenMemo(cache, "test"), store.OpenMemo(cache, "test")
	for i, m := range []*store.Memo{p1, p2} {
		st := stampOf(t, files[i])
		m.Put(st, []byte{byte('a' + i)})
	}
	st := stampOf(t, files[2])
	p1.Put(st, []byte("c"))
	if err := p1.Save(); err != nil {
		t.Fatal(err)
	}
	os.Remove(files[2])
	if err := p2.Save(); err != nil {
		t.Fatal(err)
	}
	m := store.OpenMemo(cache, "test")
	if got := memoGet(m, files[0]); string(got) != "a" {
		t.Errorf("the first process's entry: %q", got)
	}
	if got := memoGet(m, files[1]); string(got) != "b" {
		t.Errorf("the second process's entry: %q", got)
	}
	data, _ := os.ReadFile(filepath.Join(cache, "test.memo"))
	if bytes.Contains(data, []byte(files[2])) {
		t.Error("a session removed before the save is still in the memo")
	}
}

// A Save waits while another process holds the memo's lock, and one that
// holds it too long is gone without: the memo is written all the same.
func TestMemoSaveWaitsForTheLock(t *testing.T) {
	dir, files := copyStore(t)
	settled(t)
	cache := filepath.Join(dir, "cache")
	unlock, err := cachefile.Lock(filepath.Join(cache, "test.memo.lock"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer store.SetMemoLockWait(100 * time.Millisecond)()
	m := store.OpenMemo(cache, "test")
	st := stampOf(t, files[0])
	m.Put(st, []byte("x"))
	began := time.Now()
	if err := m.Save(); err != nil {
		t.Fatal(err)
	}
	unlock()
	if time.Since(began) < 100*time.Millisecond {
		t.Error("the save did not wait for the lock")
	}
	if got := memoGet(store.OpenMemo(cache, "test"), files[0]); string(got) != "x" {
		t.Errorf("kept %q", got)
	}
}

// A memo file that is damaged, or a write that fails at any byte (a full
// disk), leaves an empty memo or the one before: never a wrong entry.
func TestMemoDamagedOrFailedWrite(t *testing.T) {
	dir, files := copyStore(t)
	settled(t)
	cache := filepath.Join(dir, "cache")
	m := store.OpenMemo(cache, "test")
	st := stampOf(t, files[0])
	m.Put(st, []byte("old"))
	m.Save()
	path := filepath.Join(cache, "test.memo")
	good, _ := os.ReadFile(path)

	for _, n := range []int64{0, 1, 10, int64(len(good)) - 1} {
		m := store.OpenMemo(cache, "test")
		st := stampOf(t, files[0])
		m.Put(st, []byte("new"))
		restore := cachefile.FailAfter(n)
		err := m.Save()
		restore()
		if err == nil {
			t.Errorf("a write failing after %d bytes saved", n)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, good) {
			t.Errorf("a write failing after %d bytes changed the memo", n)
		}
	}
	for _, cut := range []int{len(good) - 1, len(good) / 2, 3} {
		os.WriteFile(path, good[:cut], 0o600)
		if got := memoGet(store.OpenMemo(cache, "test"), files[0]); got != nil {
			t.Errorf("a memo cut at %d gives %q", cut, got)
		}
	}
	bad := bytes.Clone(good)
	bad[len(bad)-2] ^= 1
	os.WriteFile(path, bad, 0o600)
	if got := memoGet(store.OpenMemo(cache, "test"), files[0]); got != nil {
		t.Errorf("a memo with a flipped bit gives %q", got)
	}
}

// Processes that save at once lose nothing of each other's: each Save
// holds the lock while it reads, merges and writes (two opens of the lock
// in one process exclude each other as two processes do).
func TestMemoSavesAtOnce(t *testing.T) {
	dir, files := copyStore(t)
	settled(t)
	cache := filepath.Join(dir, "cache")
	n := min(8, len(files))
	memos := make([]*store.Memo, n)
	for i := range memos {
		memos[i] = store.OpenMemo(cache, "test")
		st := stampOf(t, files[i])
		memos[i].Put(st, []byte{byte('a' + i)})
	}
	done := make(chan error)
	for _, m := range memos {
		go func() { done <- m.Save() }()
	}
	for range memos {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	m := store.OpenMemo(cache, "test")
	for i := range n {
		if got := memoGet(m, files[i]); string(got) != string(rune('a'+i)) {
			t.Errorf("%s: %q, want %q", filepath.Base(files[i]), got, string(rune('a'+i)))
		}
	}
}

// A temporary file left by a process that died while it wrote the memo is
// removed by a later save once it is old, and not while it may be another
// process's.
func TestMemoRemovesStaleTemps(t *testing.T) {
	dir, files := copyStore(t)
	settled(t)
	cache := filepath.Join(dir, "cache")
	os.MkdirAll(cache, 0o700)
	old, young := filepath.Join(cache, "test.memo.tmp0123"), filepath.Join(cache, "test.memo.tmp4567")
	for _, f := range []string{old, young} {
		os.WriteFile(f, []byte("half a memo"), 0o600)
	}
	long := time.Now().Add(-2 * time.Hour)
	os.Chtimes(old, long, long)
	m := store.OpenMemo(cache, "test")
	m.Put(stampOf(t, files[0]), []byte("x"))
	if err := m.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(old); err == nil {
		t.Error("an old temporary file is still there")
	}
	if _, err := os.Lstat(young); err != nil {
		t.Error("a young temporary file was removed")
	}
}
