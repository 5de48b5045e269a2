package dhara05

import (
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// FuzzParse feeds damaged session files to every reader: none may panic or
// loop, whatever the bytes.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"sessions", "damaged"} {
		formattest.AddFiles(f, 0, filepath.Join(fixtures, dir, "*.jsonl"), filepath.Join(fixtures, dir, ".*.jsonl"))
	}
	f.Add([]byte(`{"type":"meta"}` + "\n" + `{"type":"entry","id":"a","parentId":"b"}` + "\n" + `{"type":"entry","id":"b","parentId":"a"}`))
	f.Add([]byte(`{"type":"entry","id":"a","parentId":"a","role":"assistant","toolCalls":[{"id":1},{"input":[]},7],"content":"x","metadata":{"tokenCount":{"input":"1"},"cost":{}}}`))
	f.Add([]byte(`{"type":"branch","id":"a","parentId":null,"label":5}` + "\r\n" + `{"type":"entry","id":"a","parentId":"a","role":"tool_result"}`))
	f.Add([]byte("\xef\xbb\xbf{\"type\":\"meta\",\"model\":{\"thinkingLevel\":null},\"tags\":[1,\"x\"]}\n\n{\"type\":\"entry\",\"id\":\"\\u00e9\",\"role\":\"user\",\"content\":[{\"type\":\"image\",\"data\":1},{\"type\":\"thinking\",\"thinking\":\"t\"}]}"))
	formattest.FuzzParse(f, Sniff, Parse, func(t *testing.T, s *Session) {
		formattest.ExerciseDomain(t, s.Domain(model.SessionInfo{}), model.FilterAll, formattest.Readers[model.Context]{
			ID:      func(i int) string { return s.Entries[i].ID },
			Session: func() { _ = s.Info("x.jsonl", 0) },
		})
	})
}
