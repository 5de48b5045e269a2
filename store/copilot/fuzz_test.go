package copilot

import (
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// FuzzParse feeds damaged event logs to every reader: none may panic or
// loop, the tree stays a forest, and what is written is JSON.
func FuzzParse(f *testing.F) {
	formattest.AddFiles(f, 64<<10, filepath.Join(fixturesDir, "*", "copilot-home", "session-state", "*", EventsFile))
	f.Add([]byte(`{"type":"session.compaction_complete","id":"c","parentId":"x","data":{"success":true,"summaryContent":"s"}}` + "\n" +
		`{"type":"tool.execution_complete","id":"t","parentId":"c","data":{"toolCallId":"a","success":false,"error":{"message":"no"}}}` + "\n" +
		`{"type":"session.snapshot_rewind","id":"r","parentId":"t","data":{"upToEventId":"c","eventIds":["t",1]}}`))
	f.Add([]byte(`{"type":"assistant.message","id":"a","parentId":"a","data":{"toolRequests":[{"toolCallId":"a","name":"n","arguments":"x"},{}]}}` + "\nnot json\n" +
		`{"type":"user.message","id":"a","parentId":"b","agentId":"s","data":{"content":1}}`))
	formattest.FuzzParse(f, func(head []byte) bool { return backend.Detect(head, true) }, Parse, body)
}

func body(t *testing.T, s *Session) {
	formattest.ExerciseDomain(t, s.Domain(model.SessionInfo{}), model.FilterAll, formattest.Readers[model.Context]{
		ID:      func(i int) string { return s.Events[i].key },
		Forest:  true,
		Leaves:  formattest.Leaves(s),
		Session: func() { _ = s.Info("x", 0) },
	})
}

// TestBadLine: a line that is not an event is a diagnostic, and the
// events around it are read.
func TestBadLine(t *testing.T) {
	s, err := Parse([]byte(`{"type":"session.start","id":"a","parentId":null,"data":{"sessionId":"x"}}` + "\n{not json\n" +
		`{"type":"user.message","id":"b","parentId":"a","data":{"content":"hi"}}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Events) != 2 || len(s.Diagnostics) != 1 || s.Diagnostics[0].Line != 2 {
		t.Errorf("%d events, %v", len(s.Events), s.Diagnostics)
	}
}
