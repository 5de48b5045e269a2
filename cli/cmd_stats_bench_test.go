package cli

import (
	"io"
	"os"
	"strings"
	"testing"

	"skein/internal/synth"
)

// BenchmarkStats is `skein stats` over a store of 1,500 synthetic pi
// sessions (about 100 MB; SKEIN_BENCH_STORE names another store), in the
// process: cold (no memo: every session read) and warm (the memo of a run
// before, no session changed). The target is issue 22's: warm at most
// 200 ms as a whole process.
func BenchmarkStats(b *testing.B) {
	store := os.Getenv("SKEIN_BENCH_STORE")
	if store == "" {
		store = b.TempDir()
		if err := synth.StoreWith(store, 1500, 100<<20, 1, synth.StoreOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	settledClock(b)
	b.Setenv("HOME", b.TempDir())
	b.Setenv("XDG_CACHE_HOME", "")
	b.Setenv("PI_CODING_AGENT_DIR", "")
	run := func(b *testing.B) {
		if code := Run([]string{"stats", store}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.Run("cold", func(b *testing.B) {
		b.Setenv("SKEIN_INDEX", "off")
		for b.Loop() {
			run(b)
		}
	})
	b.Run("warm", func(b *testing.B) {
		run(b) // fills the memo
		for b.Loop() {
			run(b)
		}
	})
}
