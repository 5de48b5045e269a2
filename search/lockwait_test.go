package search

import (
	"path/filepath"
	"testing"
	"time"

	"skein/internal/cachefile"
)

// A process that holds the index's lock and never lets go (stopped with
// ^Z) delays another's search by lockWait at most: it then indexes
// without the lock and finds what it must.
func TestSearchGoesOnWithoutAStuckLock(t *testing.T) {
	_, files := fixtures(t)
	q, _ := Parse("the file")
	want := brute(t, q, files)
	x := OpenIndex(t.TempDir())
	defer x.Close()
	unlock, err := cachefile.Lock(filepath.Join(x.dir, lockName), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	saved := lockWait
	lockWait = 300 * time.Millisecond
	defer func() { lockWait = saved }()
	start := time.Now()
	done := make(chan []Hit, 1)
	go func() { done <- Files(x, q, files, 0, false, nil) }()
	select {
	case got := <-done:
		sameHits(t, "without the lock", got, want)
	case <-time.After(10 * time.Second):
		t.Fatal("Update waits for a lock no one gives back")
	}
	if d := time.Since(start); d < lockWait {
		t.Errorf("did not wait for the lock at all (%v)", d)
	}
}
