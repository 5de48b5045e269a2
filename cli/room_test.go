package cli

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"skein/store"
)

// A one-shot command's memory limit leaves room for what the session
// keeps on the heap: its bytes, for every format read there (a Dhara
// folder's files together, a Claude Code log), and, for a pi file the
// command maps, its index. The read commands' limit stayed at 256 MB for
// them, under what a 1 GB session keeps: collection after collection,
// 578 of them for one context.
func TestRoomForTheSession(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer func(l int64) { oneShotLimit = l }(oneShotLimit)
	oneShotLimit = 256 << 20
	dhara := filepath.Join("..", "testdata", "dhara", "store", "seed")
	pi := filepath.Join("..", "testdata", "pi", "store", "--home-dev-webapp--", "2026-03-05T19-30-00-000Z_019cbf7a-76c0-7274-900c-57fae054e717.jsonl")
	var folder int64
	for _, name := range []string{"meta.json", "tree.json", "entries.jsonl"} {
		st, err := os.Stat(filepath.Join(dhara, name))
		if err != nil {
			t.Fatal(err)
		}
		folder += st.Size()
	}
	st, err := os.Stat(pi)
	if err != nil {
		t.Fatal(err)
	}
	c := &cli{env: store.Env{Home: t.TempDir()}}
	for _, x := range []struct {
		path   string
		mapped bool
		want   int64
	}{
		{dhara, true, oneShotLimit + folder + folder/8},
		{dhara, false, oneShotLimit + folder + folder/8},
		{pi, true, oneShotLimit + st.Size()/2},
		{pi, false, oneShotLimit + st.Size() + st.Size()/8},
	} {
		debug.SetMemoryLimit(oneShotLimit)
		if _, _, err := c.open(x.path, x.mapped); err != nil {
			t.Fatal(err)
		}
		if got := debug.SetMemoryLimit(-1); got != x.want {
			t.Errorf("%s, mapped %v: limit %d, want %d", x.path, x.mapped, got, x.want)
		}
	}
}

// stats reads the files a core at a time and keeps none: its limit has
// room for the largest files a core each, not for the largest once a core
// (a 1 GB session among small ones made 3 GB of room, and a 2.8 GB peak).
func TestRoomForStats(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer func(l int64) { oneShotLimit = l }(oneShotLimit)
	dir := t.TempDir()
	var files []string
	for k, size := range []int{1000, 10, 500, 20, 30} {
		f := filepath.Join(dir, string(rune('a'+k)))
		if err := os.WriteFile(f, make([]byte, size), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for _, x := range []struct {
		atOnce int
		want   int64
	}{{1, 1500}, {2, 2250}, {3, 2295}, {9, 2340}} {
		oneShotLimit = 256 << 20
		roomForSessions(files, x.atOnce)
		if got := debug.SetMemoryLimit(-1) - 48<<20; got != x.want {
			t.Errorf("%d at once: room %d, want %d", x.atOnce, got, x.want)
		}
	}
}
