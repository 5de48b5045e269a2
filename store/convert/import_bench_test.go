package convert

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"skein/internal/synth"
)

// BenchmarkImport100MB imports a 100 MB Claude Code log and a 100 MB Codex
// rollout into Dhara's store and into pi's: read, hash, convert, write
// (synced). The target: at least 100 MB/s of the source's bytes.
func BenchmarkImport100MB(b *testing.B) {
	if testing.Short() {
		b.Skip("100 MB sessions")
	}
	dir := b.TempDir()
	claude := filepath.Join(dir, "6f1d2c3b-4a59-4e87-9d10-2b3c4d5e6f70.jsonl")
	if err := os.WriteFile(claude, synth.ClaudeLog(benchSize), 0o600); err != nil {
		b.Fatal(err)
	}
	codex := filepath.Join(dir, "rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl")
	if err := synth.CodexRollout(codex, benchSize); err != nil {
		b.Fatal(err)
	}
	for _, src := range []struct{ name, path, format string }{{"claude", claude, "claude"}, {"codex", codex, "codex"}} {
		st, _ := os.Stat(src.path)
		for _, to := range Targets {
			b.Run(src.name+"-to-"+to, func(b *testing.B) {
				b.SetBytes(st.Size())
				n := 0
				for b.Loop() {
					out := filepath.Join(dir, fmt.Sprintf("out-%s-%d", to, n))
					n++
					if _, err := ImportFile(src.path, Options{Format: src.format, To: to, Out: out}); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					os.RemoveAll(out)
					b.StartTimer()
				}
			})
		}
	}
}

// benchSize is the size of the sessions BenchmarkImport100MB imports.
var benchSize = 100 << 20
