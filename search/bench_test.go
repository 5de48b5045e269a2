package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The search targets of issue 10, as benchmarks of a warm search (the
// index up to date: Update finds every file unchanged, then Search) on the
// stores testdata/genstore writes with its varied vocabulary:
//
//	go run ./testdata/genstore -out /tmp/skein-100m-v -sessions 30 -gb 0.1
//	go run ./testdata/genstore -out /tmp/skein-1g-v -sessions 2000 -gb 1
//	go run ./testdata/genstore -out /tmp/skein-5g-v -sessions 10000 -gb 5
//	go test ./search -run XXX -bench Target -benchtime 5x
//
// (SKEIN_BENCH_100M, SKEIN_BENCH_1G and SKEIN_BENCH_5G name other folders;
// a store that is not there is skipped.) The index is built once per store
// in the test's cache folder, which takes minutes for 5 GB. Targets: two
// words over 100 MB under 100 ms, over 5 GB under 1 s; re:wombat-\d+ over
// 1 GB under 2 s; re:[a-z]{30} has none (its MB/s is reported).

func benchStore(b *testing.B, env, dflt string) (files []string, mb float64) {
	dir := os.Getenv(env)
	if dir == "" {
		dir = dflt
	}
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no store at %s (see the comment above)", dir)
	}
	var size int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	return files, float64(size) / (1 << 20)
}

// benchIndexes are the indexes built for the benchmarks, by store.
var benchIndexes = map[string]string{}

func benchSearch(b *testing.B, env, dflt, query string) {
	files, mb := benchStore(b, env, dflt)
	dir, ok := benchIndexes[env]
	if !ok {
		var err error
		if dir, err = os.MkdirTemp("", "skein-bench-index-"); err != nil {
			b.Fatal(err)
		}
		x := OpenIndex(dir)
		if err := x.Update(files, nil); err != nil {
			b.Fatal(err)
		}
		x.Save()
		x.Close()
		benchIndexes[env] = dir
	}
	q, err := Parse(query)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		x := OpenIndex(dir)
		if err := x.Update(files, nil); err != nil || x.Reads+x.PartReads != 0 {
			b.Fatalf("the index is not warm: %v, %d read", err, x.Reads+x.PartReads)
		}
		if hits := x.Search(q, files, 20); len(hits) == 0 {
			b.Fatalf("%s: no hit", query)
		}
		x.Close()
	}
	b.ReportMetric(mb*float64(b.N)/b.Elapsed().Seconds(), "MB/s")
}

func BenchmarkTargetSearchTwoWords100MB(b *testing.B) {
	benchSearch(b, "SKEIN_BENCH_100M", "/tmp/skein-100m-v", "parser token")
}

func BenchmarkTargetSearchTwoWords5GB(b *testing.B) {
	benchSearch(b, "SKEIN_BENCH_5G", "/tmp/skein-5g-v", "parser token")
}

func BenchmarkTargetSearchLiteralPattern1GB(b *testing.B) {
	benchSearch(b, "SKEIN_BENCH_1G", "/tmp/skein-1g-v", `re:wombat-\d+`)
}

func BenchmarkTargetSearchClassPattern1GB(b *testing.B) {
	benchSearch(b, "SKEIN_BENCH_1G", "/tmp/skein-1g-v", `re:[a-z]{30}`)
}
