package kimicli

import (
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// FuzzParse feeds damaged wires to the reader: none may panic or loop,
// and the tree stays a forest.
func FuzzParse(f *testing.F) {
	formattest.AddFiles(f, 64<<10, filepath.Join("..", "..", "testdata", "agentgen", "kimicli", "fixtures", "*", "kimi-share", "sessions", "*", "*", "wire.jsonl"))
	// A call whose result never came, a part with no call, a bad line, a
	// record with no type, a result of no call, a payload not an object.
	f.Add([]byte(`{"type": "metadata", "protocol_version": "1.10"}
{"timestamp": 1, "message": {"type": "TurnBegin", "payload": {"user_input": [{"type": "text", "text": "hi"}]}}}
{"timestamp": 2, "message": {"type": "StepBegin", "payload": {"n": 1}}}
{"timestamp": 3, "message": {"type": "ToolCallPart", "payload": {"arguments_part": "{"}}}
{"timestamp": 3, "message": {"type": "ToolCall", "payload": {"id": "c1", "function": {"name": "Shell", "arguments": null}}}}
not json
{"timestamp": 4}
{"timestamp": 5, "message": {"type": "ToolResult", "payload": {"tool_call_id": "zz", "return_value": {"is_error": true, "output": [{"type": "text", "text": "x"}]}}}}
{"timestamp": 6, "message": {"type": "StatusUpdate", "payload": 7}}
`))
	formattest.FuzzParse(f, Sniff, Parse, body)
}

// body checks that every entry's parent comes before it, and calls the
// readers model gives every format (formattest.ExerciseDomain) and the
// session's own.
func body(t *testing.T, s *Session) {
	for i := range s.Len() {
		if p := s.Parent(i); p >= i || p < -1 {
			t.Fatalf("entry %d: parent %d", i, p)
		}
	}
	formattest.ExerciseDomain(t, s.Domain(model.SessionInfo{}), model.FilterAll, formattest.Readers[model.Context]{
		ID:     func(i int) string { return s.Entry(i).ID },
		Leaves: formattest.Leaves(s),
		Context: func(_ int, ctx model.Context) {
			for _, m := range ctx.Messages {
				_ = s.Message(m)
			}
		},
		Session: func() { _ = s.Info("x/wire.jsonl", 0) },
	})
}

// TestBadLines: a bad line is a diagnostic, never a panic, and the
// records around it are read; bytes with no wire record are not a session.
func TestBadLines(t *testing.T) {
	s, err := Parse([]byte("{\"type\": \"metadata\", \"protocol_version\": \"1.10\"}\nnot json\n{\"timestamp\": 1.5, \"message\": {\"type\": \"TurnBegin\", \"payload\": {\"user_input\": \"hi\"}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Diagnostics) != 1 || s.Diagnostics[0].Line != 2 || s.Len() != 2 || s.Entries[1].Time != 1500 {
		t.Errorf("diagnostics %v, %d entries", s.Diagnostics, s.Len())
	}
	formattest.NotSession(t, Parse, ErrNotSession, "nothing\n", `{"type":"metadata","protocol_version":"1.5","created_at":1}`+"\n", `{"type":"context.append_message","agentId":"main"}`+"\n")
}
