package droid

import (
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// FuzzParse feeds damaged sessions to every reader: none may panic or
// loop, the tree stays a forest, and what is written is JSON.
func FuzzParse(f *testing.F) {
	formattest.AddFiles(f, 64<<10, filepath.Join(agentgen.Dir, "*", "home", ".factory", "sessions", "*", "*.jsonl"))
	// A cycle, a missing parent, a repeated id, two tool results in one
	// record, an error shown but not sent, a string content.
	f.Add([]byte(`{"type":"session_start","id":"s","title":"t","version":2,"cwd":"/p"}
{"type":"message","id":"a","parentId":"b","message":{"role":"user","content":"hi"}}
{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"x","input":{}},{"type":"tool_use","id":"c2","name":"y"}]}}
{"type":"message","id":"c","parentId":"zz","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"ok"},{"type":"tool_result","tool_use_id":"c2","is_error":true,"content":[{"type":"text","text":"no"}]}]}}
{"type":"message","id":"c","parentId":"c","message":{"role":"user","content":[{"type":"text","text":"BYOK Error"}],"visibility":"user_only"}}
{"type":"agent_turn_outcome","turnId":"c","reason":"completed"}
`))
	formattest.FuzzParse(f, Sniff, Parse, body)
}

func body(t *testing.T, s *Session) {
	formattest.ExerciseDomain(t, s.Domain(model.SessionInfo{}), model.FilterAll, formattest.Readers[model.Context]{
		ID:      func(i int) string { return s.idOf(i) },
		Forest:  true,
		Leaves:  formattest.Leaves(s),
		Session: func() { _ = s.Info("x.jsonl", 0) },
	})
}
