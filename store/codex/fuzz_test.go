package codex

import (
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// FuzzParse feeds damaged rollouts to every reader: none may panic or
// loop, the tree stays a forest, and what is written is JSON.
func FuzzParse(f *testing.F) {
	formattest.AddFiles(f, 0, filepath.Join(fixtures, "*.jsonl"))
	f.Add([]byte(`{"timestamp":"t","type":"compacted","payload":{"message":"m","replacement_history":[{"type":"function_call_output","call_id":"c"},{"type":"function_call","call_id":"c","name":"n","arguments":"{}"},{"type":"web_search_call"}]}}` + "\n" +
		`{"timestamp":"t","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":2}}`))
	f.Add([]byte(`{"type":"message","role":"user","content":[{"type":"input_text","text":"a"}]}` + "\n" +
		`{"timestamp":"t","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":1}}` + "\n" +
		`{"timestamp":"t","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":1}}`))
	formattest.FuzzParse(f, Sniff, Parse, body)
}

func body(t *testing.T, s *Session) {
	formattest.ExerciseDomain(t, s.Domain(model.SessionInfo{}), model.FilterAll, formattest.Readers[model.Context]{
		ID:      func(i int) string { return s.Entries[i].ID() },
		Leaves:  formattest.Leaves(s),
		Session: func() { _ = s.Info("x.jsonl", 0) },
	})
}
