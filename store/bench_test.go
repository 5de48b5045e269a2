package store_test

import (
	"os"
	"path/filepath"
	"skein/store"
	"testing"

	"skein/internal/synth"
)

// benchStore is a store of 1,500 sessions, 100 MB in all, written once per
// run by the synth package in pi's exact line format; SKEIN_BENCH_STORE names
// another (e.g. one the reference implementation wrote, see compare.sh).
func benchStore(b *testing.B) string {
	if dir := os.Getenv("SKEIN_BENCH_STORE"); dir != "" {
		return dir
	}
	dir := filepath.Join(os.TempDir(), "skein-bench-store-v2")
	if _, err := os.Stat(filepath.Join(dir, "done")); err != nil {
		os.RemoveAll(dir)
		if err := synth.Store(dir, 1500, 100<<20, 1); err != nil {
			b.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "done"), nil, 0o644)
	}
	return dir
}

// BenchmarkList is the listing target: 1,500 sessions, 100 MB, files in the
// page cache, no cache of skein's. pi takes 1.4-2.5 s; the target is a tenth.
func BenchmarkList(b *testing.B) {
	dir := benchStore(b)
	files, err := store.Discover([]string{dir})
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, f := range files {
		st, _ := os.Stat(f)
		size += st.Size()
	}
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		infos, problems := store.List(files, nil)
		if len(infos) != len(files) || len(problems) != 0 {
			b.Fatalf("%d infos, %d problems", len(infos), len(problems))
		}
	}
}

// BenchmarkDiscover walks the store.
func BenchmarkDiscover(b *testing.B) {
	dir := benchStore(b)
	for b.Loop() {
		if _, err := store.Discover([]string{dir}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListWarm is the list of the 1,500-session store through a warm
// index: the index read, every file stat'ed and its token checked, no
// file scanned. The target is 50 times faster than pi 1.6.0's listing.
func BenchmarkListWarm(b *testing.B) {
	root := benchStore(b)
	cache := b.TempDir()
	files, err := store.Discover([]string{root})
	if err != nil {
		b.Fatal(err)
	}
	c := store.OpenCache(cache)
	store.UseCache(c)
	store.List(files, nil)
	c.Save()
	store.UseCache(nil)
	for b.Loop() {
		store.UseCache(store.OpenCache(cache))
		files, _ := store.Discover([]string{root})
		if infos, _ := store.List(files, nil); len(infos) != len(files) {
			b.Fatalf("%d of %d listed", len(infos), len(files))
		}
		store.UseCache(nil)
	}
}
