package kimi

import (
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// FuzzParse feeds damaged wires to every reader: none may panic or loop,
// and the tree stays a forest.
func FuzzParse(f *testing.F) {
	formattest.AddFiles(f, 64<<10, filepath.Join(agentgen.Dir, "*", "kimi-home", "sessions", "*", "*", "agents", "main", "wire.jsonl"))
	// A step with a call whose result never came, an undo, a clear, a
	// compaction, a bad line and a record with no type.
	f.Add([]byte(`{"type":"metadata","protocol_version":"1.5"}
{"type":"context.append_message","agentId":"main","message":{"role":"user","content":[{"type":"text","text":"hi"}],"origin":{"kind":"user"}}}
{"type":"context.append_loop_event","agentId":"main","event":{"type":"step.begin","uuid":"s1"}}
{"type":"context.append_loop_event","agentId":"main","event":{"type":"tool.call","stepUuid":"s1","toolCallId":"c1","name":"Bash","args":{"command":"ls"}}}
{"type":"context.append_message","agentId":"main","message":{"role":"user","content":[{"type":"text","text":"later"}],"origin":{"kind":"user"}}}
{"type":"context.undo","agentId":"main","count":1}
not json
{"agentId":"main"}
{"type":"context.apply_compaction","agentId":"main","summary":"so far"}
{"type":"context.append_loop_event","agentId":"main","event":{"type":"tool.result","toolCallId":"c1","result":{"output":[{"type":"text","text":"x"}],"isError":true}}}
{"type":"context.clear","agentId":"main"}
{"type":"subagent.spawned","subagentId":"agent-0","parentToolCallId":"c1"}
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
		Session: func() { _ = s.Info("x/agents/main/wire.jsonl", 0) },
	})
}

// TestBadLines: a bad line is a diagnostic, never a panic, and the
// records around it are read.
func TestBadLines(t *testing.T) {
	s, err := Parse([]byte("{\"type\":\"metadata\",\"protocol_version\":\"1.5\"}\nnot json\n{\"type\":\"context.append_message\",\"agentId\":\"main\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"origin\":{\"kind\":\"user\"}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Diagnostics) != 1 || s.Diagnostics[0].Line != 2 || s.Len() != 2 {
		t.Errorf("diagnostics %v, %d entries", s.Diagnostics, s.Len())
	}
	if _, err := Parse([]byte("nothing\n")); err != ErrNotSession {
		t.Errorf("err %v", err)
	}
}

// TestNotLegacy: the legacy Kimi CLI's metadata line (no created_at) is
// not taken for Kimi Code's, whatever order the formats are tried in;
// Kimi Code's own is.
func TestNotLegacy(t *testing.T) {
	if IsRecord([]byte(`{"type": "metadata", "protocol_version": "1.10"}`)) {
		t.Error("the legacy metadata line taken for Kimi Code's")
	}
	if !IsRecord([]byte(`{"type":"metadata","protocol_version":"1.5","created_at":1796568044873}`)) {
		t.Error("Kimi Code's metadata line not taken")
	}
}
