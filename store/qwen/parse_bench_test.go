package qwen

import (
	"os"
	"testing"
)

// BenchmarkParse reads the largest chat Qwen Code wrote in the agent's
// runs.
func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("../../testdata/agentgen/qwen/fixtures/subagent/qwen-home/projects/-sandbox-proj/chats/8fd7a46f-ec9c-4cd0-8e62-d238d27ff076.jsonl")
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
