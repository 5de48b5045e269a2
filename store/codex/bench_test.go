package codex

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/internal/synth"
	"skein/model"
)

func rollout(b *testing.B, size int) []byte {
	b.Helper()
	path := filepath.Join(b.TempDir(), "rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl")
	if err := synth.CodexRollout(path, size); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkParse100MB parses a 100 MB rollout: the target is well over
// 100 MB/s on two cores (go test -bench Parse100MB -cpu 2).
func BenchmarkParse100MB(b *testing.B) {
	data := rollout(b, 100<<20)
	formattest.Throughput(b, int64(len(data)), func() error {
		s, err := Parse(data)
		if err == nil && s.Leaf() < 0 {
			err = errors.New("no leaf")
		}
		return err
	})
}

// BenchmarkOpen100MB is Open (the read included), then the list record,
// the context at the leaf and the stats: what opening a session in the
// TUI costs.
func BenchmarkOpen100MB(b *testing.B) {
	data := rollout(b, 100<<20)
	path := filepath.Join(b.TempDir(), "r.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	formattest.Throughput(b, int64(len(data)), func() error {
		s, err := Open(path)
		switch {
		case err != nil:
			return err
		case s.Info(path, 0).MessageCount == 0:
			return errors.New("no messages")
		case len(s.BuildContext(s.Leaf()).Messages) == 0:
			return errors.New("empty context")
		}
		if st := s.Stats(); st.Tokens() == 0 {
			return errors.New("no usage")
		}
		return nil
	})
}

// The strings an entry keeps share the file's buffer: they must stay
// readable after the session is collected (str's reasoning).
func TestValuesOutliveSession(t *testing.T) {
	write := func(path string) error { return synth.CodexRollout(path, 8<<20) }
	formattest.ValuesOutlive(t, "big.jsonl", write, Open, func(s *Session) []any {
		var call *Entry
		for i := range s.Entries {
			if s.Entries[i].ItemType == "function_call_output" {
				call = &s.Entries[i]
			}
		}
		return []any{call.Timestamp, call.ItemType, call.CallID, call.Raw}
	})
}

// The generated rollout reads as Codex would resume it: every call paired,
// the compactions in place, the usage counted once.
func TestGenerated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.jsonl")
	if err := synth.CodexRollout(path, 12<<20); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil || len(s.Diagnostics) != 0 {
		t.Fatalf("%v %v", err, s.Diagnostics)
	}
	ctx := s.BuildContext(s.Leaf())
	if ctx.Compaction < 0 || ctx.Model == nil || ctx.Model.Name() != "openai/gpt-5-codex" {
		t.Errorf("compaction %d model %+v", ctx.Compaction, ctx.Model)
	}
	msgs := formattest.Messages(s, s.BuildHistory(s.Leaf()))
	calls, pairs := 0, model.PairTools(msgs)
	for i := range msgs {
		calls += len(msgs[i].ToolCalls())
	}
	if calls == 0 || len(pairs) != calls {
		t.Errorf("%d calls, %d paired", calls, len(pairs))
	}
	st := s.Stats()
	if st.ToolCalls != calls || st.TokensOut == 0 || st.CacheRead != 4*st.TokensIn {
		t.Errorf("stats %+v", st.Totals)
	}
}
