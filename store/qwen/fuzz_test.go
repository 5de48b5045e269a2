package qwen

import (
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// FuzzParse feeds damaged chats to every reader: none may panic or loop,
// the tree stays a forest, and what is written is JSON.
func FuzzParse(f *testing.F) {
	formattest.AddFiles(f, 64<<10, filepath.Join(agentgen.Dir, "*", "qwen-home", "projects", "*", "chats", "*.jsonl"))
	// A cycle, a fragment (a repeated uuid), a missing parent, a
	// compression, an API error and a tool result of two responses.
	f.Add([]byte(`{"uuid":"a","parentUuid":"b","sessionId":"s","type":"user","provenance":"real_user","message":{"role":"user","parts":[{"text":"hi"}]}}
{"uuid":"b","parentUuid":"a","sessionId":"s","type":"assistant","message":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"x","args":{}}},{"functionCall":{"id":"c2","name":"y"}}]}}
{"uuid":"b","parentUuid":"a","sessionId":"s","type":"assistant","message":{"role":"model","parts":[{"text":"more"}]}}
{"uuid":"c","parentUuid":"b","sessionId":"s","type":"tool_result","message":{"role":"user","parts":[{"functionResponse":{"id":"c1","name":"x","response":{"output":"ok"}}},{"functionResponse":{"id":"c2","name":"y","response":{"error":"no"}}}]}}
{"uuid":"d","parentUuid":"zz","sessionId":"s","type":"system","subtype":"chat_compression","systemPayload":{"info":{"newTokenCount":5},"compressedHistory":[{"role":"user","parts":[{"text":"summary"}]},{"role":"model","parts":[{"text":"ok"}]}]}}
{"uuid":"e","parentUuid":"d","sessionId":"s","type":"system","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.api_error","error":"boom","status_code":400}}}
`))
	formattest.FuzzParse(f, Sniff, Parse, body)
}

func body(t *testing.T, s *Session) {
	formattest.ExerciseDomain(t, s.Domain(model.SessionInfo{}), model.FilterAll, formattest.Readers[model.Context]{
		ID:      func(i int) string { return s.Entries[i].ID() },
		Forest:  true,
		Leaves:  formattest.Leaves(s),
		Session: func() { _ = s.Info("x.jsonl", 0) },
	})
}
