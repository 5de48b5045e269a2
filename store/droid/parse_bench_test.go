package droid

import (
	"os"
	"testing"
)

// BenchmarkParse reads the largest session Droid wrote in the agent's runs.
func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("../../testdata/agentgen/droid/fixtures/task-fails/home/.factory/sessions/-sandbox-proj/159d0005-4100-492e-832b-2bfdb30357d5.jsonl")
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
