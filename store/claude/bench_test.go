package claude

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"skein/internal/formattest"
	"skein/internal/synth"
	"skein/model"
)

var (
	bigOnce sync.Once
	bigLog  []byte
)

func big100() []byte {
	bigOnce.Do(func() { bigLog = synth.ClaudeLog(100 << 20) })
	return bigLog
}

// BenchmarkParse100MB parses a generated 100 MB log (the target: well over
// 100 MB/s on 2 cores).
func BenchmarkParse100MB(b *testing.B) {
	data := big100()
	formattest.Throughput(b, int64(len(data)), func() error {
		_, err := Parse(data)
		return err
	})
}

// BenchmarkOpenInfo100MB reads the generated log from a file and makes
// its list record, as the list does.
func BenchmarkOpenInfo100MB(b *testing.B) {
	data := big100()
	p := filepath.Join(b.TempDir(), "6f1d2c3b-4a59-4e87-9d10-2b3c4d5e6f70.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		b.Fatal(err)
	}
	formattest.Throughput(b, int64(len(data)), func() error {
		s, err := Open(p)
		if err != nil {
			return err
		}
		_ = s.Info(p, 0)
		return nil
	})
}

// TestGeneratedLog checks the benchmark's log is read as meant.
func TestGeneratedLog(t *testing.T) {
	data := synth.ClaudeLog(4 << 20)
	s, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %v", s.Diagnostics[:min(3, len(s.Diagnostics))])
	}
	info := s.Info("x.jsonl", 0)
	if info.Branches < 2 || s.Leaf() < 0 {
		t.Fatalf("branches %d, leaf %d", info.Branches, s.Leaf())
	}
	ctx := s.BuildContext(s.Leaf())
	if ctx.Compaction < 0 || s.Message(ctx.Messages[0]).Role != model.RoleCompactionSummary {
		t.Fatalf("context starts %+v", ctx.Messages[:1])
	}
}
