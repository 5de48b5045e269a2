package cline

import (
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// FuzzParse feeds damaged messages files to every reader: none may panic
// or loop, the tree stays a forest, and what is written is JSON.
func FuzzParse(f *testing.F) {
	formattest.AddFiles(f, 64<<10, filepath.Join(agentgen.Dir, "*", "cline-home", "data", "sessions", "*", "*"+MessagesSuffix))
	// The extension's bare array: a string content, a repeated id, a
	// result for no call, a bad message, redacted thinking.
	f.Add([]byte(`[{"role":"user","content":"hi","id":"a"},{"role":"assistant","id":"a","content":[{"type":"redacted_thinking"},{"type":"tool_use","id":"c","name":"x","input":"s"}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"z","content":[{"type":"text","text":"t"}],"is_error":true}]},{"role":"tool"},7]`))
	f.Add([]byte(`{"version":1,"sessionId":"s","messages":[{"role":"user","content":[{"type":"text","text":"<user_input mode=\"act\">x"}],"ts":1e300}]}`))
	formattest.FuzzParse(f, func([]byte) bool { return backend.Detect(nil, true) }, Parse, body)
}

func body(t *testing.T, s *Session) {
	formattest.ExerciseDomain(t, s.Domain(model.SessionInfo{}), model.FilterAll, formattest.Readers[model.Context]{
		ID:      func(i int) string { return s.Entries[i].key },
		Forest:  true,
		Context: func(_ int, ctx model.Context) { _ = s.OpenAIMessages(ctx) },
		Session: func() { _ = s.Info("x", 0) },
	})
}

// TestBadMessage: a message that does not read is a diagnostic, and the
// messages around it are read; a file that is no JSON is no session.
func TestBadMessage(t *testing.T) {
	s, err := Parse([]byte(`{"version":1,"sessionId":"s","messages":[{"role":"user","content":"a"},{"role":5},{"role":"assistant","content":[{"type":"text","text":"b"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != 2 || len(s.Diagnostics) != 1 || s.Leaf() != 1 {
		t.Errorf("%d entries, %v", len(s.Entries), s.Diagnostics)
	}
	formattest.NotSession(t, Parse, ErrNotSession, `{"version":1,"messages":[`, "", "not json", `{"a":1}`)
}

// TestUserText: the CLI's wrapper is taken off as Cline does.
func TestUserText(t *testing.T) {
	for in, want := range map[string]string{
		`<user_input mode="act">Say hello.</user_input>`:                     "Say hello.",
		`<mode_notice>n</mode_notice><user_input mode="plan">x</user_input>`: "<mode_notice>n</mode_notice>x",
		"plain":                       "plain",
		`<user_input mode="act">open`: "open",
		`<user_inputs>`:               "<user_inputs>",
	} {
		if got := UserText(in); got != want {
			t.Errorf("UserText(%q) = %q, want %q", in, got, want)
		}
	}
}
