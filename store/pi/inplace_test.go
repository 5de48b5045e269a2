//go:build linux

package pi

import (
	"fmt"
	"os"
	"path/filepath"
	"skein/internal/stamp"
	"skein/store"
	"strings"
	"testing"
)

// A change in place in the clock tick of the indexing (so that the
// inode's change time did not move): the file's stat is not trusted, and
// its bytes, all of them and not only its last 4 KB, show the change, to
// the list and to the text index.
func TestChangeInTheIndexingTick(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/x"}` + "\n")
	for i := range 40 {
		text := "filler " + strings.Repeat("wombat ", 30)
		if i == 0 {
			text = "my password is hunter2"
		}
		b.WriteString(fmt.Sprintf(`{"type":"message","id":"m%04d","parentId":null,"timestamp":"2026-11-20T10:00:01.000Z","message":{"role":"user","content":"%s","timestamp":1}}`+"\n", i, text))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, state, err := backend{}.ListCached(path, nil, nil)
	if err != nil || state == nil {
		t.Fatal(err)
	}
	part, _, err := store.ReadText(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)
	data, _ := os.ReadFile(path)
	copy(data[strings.Index(string(data), "hunter"):], "XXXXXX")
	f, _ := os.OpenFile(path, os.O_WRONLY, 0)
	f.WriteAt(data, 0)
	f.Close()
	os.Chtimes(path, before.ModTime(), before.ModTime())
	after, _ := os.Stat(path)
	in, ok := stamp.ChangeTime(after)
	if !ok {
		t.Skip("no change times here")
	}
	// The tokens as if the write had been in the indexing's clock tick.
	var ps piListState
	if !decodeState(state, &ps) {
		t.Fatal("state does not decode")
	}
	ps.Inode, ps.IndexedNs = in, in.CtimeNs+1
	_, info, _, err := backend{}.ListCached(path, encodeState(ps), nil)
	if err != nil || !strings.Contains(info.FirstMessage, "XXXXXX2") {
		t.Errorf("the list shows %q (%v)", info.FirstMessage, err)
	}
	ts := part.State
	ts.Dev, ts.Ino, ts.CtimeNs, ts.IndexedNs = in.Dev, in.Ino, in.CtimeNs, in.CtimeNs+1
	if _, same := ts.Check(path); same {
		t.Error("the text index finds the file unchanged")
	}
	// And unchanged, its bytes say so, and the next check trusts its stat.
	if _, _, kept, _ := (backend{}).ListCached(path, nil, nil); kept != nil {
		var now piListState
		decodeState(kept, &now)
		now.Inode, now.IndexedNs = in, in.CtimeNs+1
		f0 := wholeReads()
		_, info, restamped, _ := backend{}.ListCached(path, encodeState(now), nil)
		var rs piListState
		if decodeState(restamped, &rs); wholeReads() != f0 || rs.IndexedNs <= now.IndexedNs || !strings.Contains(info.FirstMessage, "XXXXXX2") {
			t.Errorf("unchanged: %d read whole, indexed at %d (was %d), %q", wholeReads()-f0, rs.IndexedNs, now.IndexedNs, info.FirstMessage)
		}
	}
}

// A file that is no session, checked in the clock tick of its indexing:
// its bytes, all of them, say it is unchanged, and it is not read again.
func TestNotASessionInTheIndexingTick(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.jsonl")
	os.WriteFile(path, []byte(strings.Repeat("not a session line\n", 400)+"no line end"), 0o644)
	_, _, state, err := backend{}.ListCached(path, nil, nil)
	if _, ok := err.(*NotSession); !ok || state == nil {
		t.Fatalf("%v, state %v", err, state != nil)
	}
	st, _ := os.Stat(path)
	in, ok := stamp.ChangeTime(st)
	if !ok {
		t.Skip("no change times here")
	}
	var ps piListState
	decodeState(state, &ps)
	ps.Inode, ps.IndexedNs = in, in.CtimeNs+1
	f0 := wholeReads()
	_, _, _, err = backend{}.ListCached(path, encodeState(ps), nil)
	if _, ok := err.(*NotSession); !ok || wholeReads() != f0 {
		t.Errorf("%v, %d read whole", err, wholeReads()-f0)
	}
}

// wholeReads is how many files the list has read whole.
func wholeReads() int64 { w, _ := store.ListReads(); return w }
