package formats

import (
	"os"
	"testing"

	"skein/internal/formattest"
	"skein/store/copilot"
	"skein/store/droid"
	"skein/store/qwen"
)

// BenchmarkParse reads, for the formats whose parsers have no benchmark of
// their own, the largest session each agent wrote in its runs
// (`go test -bench Parse/droid ./store/formats/`).
func BenchmarkParse(b *testing.B) {
	const runs = "../../testdata/agentgen/"
	for _, c := range []struct {
		name, path string
		parse      func([]byte) error
	}{
		{"droid", runs + "droid/fixtures/task-fails/home/.factory/sessions/-sandbox-proj/159d0005-4100-492e-832b-2bfdb30357d5.jsonl",
			func(data []byte) error { _, err := droid.Parse(data); return err }},
		{"copilot", runs + "copilot/fixtures/compact/copilot-home/session-state/86c88a23-1d18-4469-be9f-d2b84a2f5d80/events.jsonl",
			func(data []byte) error { _, err := copilot.Parse(data); return err }},
		{"qwen", runs + "qwen/fixtures/subagent/qwen-home/projects/-sandbox-proj/chats/8fd7a46f-ec9c-4cd0-8e62-d238d27ff076.jsonl",
			func(data []byte) error { _, err := qwen.Parse(data); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			data, err := os.ReadFile(c.path)
			if err != nil {
				b.Fatal(err)
			}
			formattest.Throughput(b, int64(len(data)), func() error { return c.parse(data) })
		})
	}
}
