package cursor

import (
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// FuzzParse feeds damaged transcripts to the reader: none may panic or
// loop, the tree stays a forest, and what is written is JSON.
func FuzzParse(f *testing.F) {
	formattest.AddFiles(f, 64<<10, filepath.Join(transcripts, "*", "*.jsonl"), filepath.Join(transcripts, "*.jsonl"))
	f.Add([]byte(`{"role":"assistant","message":{"content":[{"type":"tool_use","name":"x"},{"type":"tool_use","id":"c2","name":"y","input":[]}]}}
{"role":"user","message":{"content":[{"type":"tool_result","tool_use_id":"c2","content":"ok"},{"type":"tool_result"},{"type":"tool_result","content":{}}]}}
{"type":"turn_ended","status":"error"}
[1,2]
{"role":"user","message":{"content":7}}
`))
	formattest.FuzzParse(f, Sniff, Parse, func(t *testing.T, s *Session) {
		d := s.Domain(model.SessionInfo{})
		formattest.CheckForest(t, d)
		for i := range s.Len() {
			_ = d.EntryMessage(i)
			_ = s.Entry(i)
		}
		for _, m := range s.BuildContext(s.Leaf()).Messages {
			_ = s.Message(m)
		}
		_ = s.Info("x.jsonl", 0, "")
		_ = d.Stats()
	})
}
