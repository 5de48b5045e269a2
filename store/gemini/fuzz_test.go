package gemini

import (
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// FuzzParse feeds damaged chat files to every reader: none may panic or
// loop, the tree stays a forest, and what is written is JSON.
func FuzzParse(f *testing.F) {
	formattest.AddFiles(f, 64<<10, filepath.Join(agentgen, "*", "home", ".gemini", "tmp", "*", "chats", "*.jsonl"))
	f.Add([]byte(`{"sessionId":"s","projectHash":"p"}` + "\n" +
		`{"id":"a","type":"user","content":"hi"}` + "\n" +
		`{"id":"b","type":"gemini","content":"","toolCalls":[{"id":"c","name":"n","args":{},"result":"r"}]}` + "\n" +
		`{"$rewindTo":"b"}` + "\n" + `{"id":"d","type":"gemini","content":[{"text":"x","thought":true}]}` + "\n" +
		`{"$set":{"messages":[{"id":"e","type":"user","content":[{"functionResponse":{"id":"c","name":"n","response":{"error":"x"}}}]}]}}` + "\n" +
		`not json` + "\n" + `{"$rewindTo":"zz"}` + "\n" + `{"other":1}`))
	f.Add([]byte(`{"sessionId":"s","projectHash":"p","messages":[{"id":"a","type":"user","content":[{"text":"hi"}]}]}`))
	formattest.FuzzParse(f, Sniff, Parse, body)
}

func body(t *testing.T, s *Session) {
	formattest.ExerciseDomain(t, s.Domain(model.SessionInfo{}), model.FilterAll, formattest.Readers[model.Context]{
		ID:      func(i int) string { return s.Entry(i).ID },
		Leaves:  formattest.Leaves(s),
		Session: func() { _ = s.Info("x.jsonl", 0) },
	})
}

// A line that is no record is a diagnostic, never a panic, and the rest
// is read.
func TestBadLine(t *testing.T) {
	s, err := Parse([]byte(`{"sessionId":"s","projectHash":"p"}` + "\n{broken\n" + `{"id":"a","type":"user","content":"hi"}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Diagnostics) != 1 || s.Diagnostics[0].Line != 2 {
		t.Errorf("diagnostics %v", s.Diagnostics)
	}
	if s.Len() != 1 || s.Leaf() != 0 {
		t.Errorf("%d entries, leaf %d", s.Len(), s.Leaf())
	}
}

// A rewind cuts the conversation there and what follows is a branch
// from the message before it.
func TestRewind(t *testing.T) {
	s, err := Parse([]byte(`{"sessionId":"s","projectHash":"p"}
{"id":"a","type":"user","content":"one"}
{"id":"b","type":"gemini","content":"two"}
{"id":"c","type":"user","content":"three"}
{"$rewindTo":"c"}
{"id":"d","type":"user","content":"three again"}
`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Parent(3) != 1 || s.tips() != 2 || s.Leaf() != 3 {
		t.Errorf("parent %d, %d tips, leaf %d", s.Parent(3), s.tips(), s.Leaf())
	}
	ctx := s.BuildContext(s.Leaf())
	if len(ctx.Messages) != 3 {
		t.Errorf("context %v", ctx.Messages)
	}
}
