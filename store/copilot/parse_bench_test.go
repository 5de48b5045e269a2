package copilot

import (
	"os"
	"testing"
)

// BenchmarkParse reads the largest events.jsonl Copilot wrote in the
// agent's runs.
func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("../../testdata/agentgen/copilot/fixtures/compact/copilot-home/session-state/86c88a23-1d18-4469-be9f-d2b84a2f5d80/events.jsonl")
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}
