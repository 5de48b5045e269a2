package dhara05

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"skein/internal/jscan"
	"skein/model"
)

// FuzzParse feeds damaged session files to every reader: none may panic or
// loop, whatever the bytes.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"sessions", "damaged"} {
		files, _ := filepath.Glob(filepath.Join(fixtures, dir, "*.jsonl"))
		dot, _ := filepath.Glob(filepath.Join(fixtures, dir, ".*.jsonl"))
		for _, p := range append(files, dot...) {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(`{"type":"meta"}` + "\n" + `{"type":"entry","id":"a","parentId":"b"}` + "\n" + `{"type":"entry","id":"b","parentId":"a"}`))
	f.Add([]byte(`{"type":"entry","id":"a","parentId":"a","role":"assistant","toolCalls":[{"id":1},{"input":[]},7],"content":"x","metadata":{"tokenCount":{"input":"1"},"cost":{}}}`))
	f.Add([]byte(`{"type":"branch","id":"a","parentId":null,"label":5}` + "\r\n" + `{"type":"entry","id":"a","parentId":"a","role":"tool_result"}`))
	f.Add([]byte("\xef\xbb\xbf{\"type\":\"meta\",\"model\":{\"thinkingLevel\":null},\"tags\":[1,\"x\"]}\n\n{\"type\":\"entry\",\"id\":\"\\u00e9\",\"role\":\"user\",\"content\":[{\"type\":\"image\",\"data\":1},{\"type\":\"thinking\",\"thinking\":\"t\"}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Sniff(data)
		s, err := Parse(data)
		if err != nil {
			return
		}
		n := s.Len()
		if leaf := s.Leaf(); leaf < -1 || leaf >= n || n > 0 && leaf < 0 {
			t.Fatalf("leaf %d of %d entries", leaf, n)
		}
		d := s.Domain(model.SessionInfo{})
		for i := range n {
			if len(d.Path(i)) > n {
				t.Fatal("path longer than the session: a cycle was followed")
			}
			if j, ok := s.Index(s.Entries[i].ID); !ok || j != i {
				t.Fatalf("entry %d: index %d %v", i, j, ok)
			}
			_ = s.TreeText(i, "/home")
			_ = d.EntryMessage(i)
		}
		leaf := s.Leaf()
		ctx := s.BuildContext(leaf)
		for _, m := range ctx.Messages {
			_ = dom(s).MessageTokens(m)
		}
		_ = s.Stats()
		_ = s.Info("x.jsonl", 0)
		var buf bytes.Buffer
		if err := dom(s).WriteContextJSON(&buf, ctx); err != nil || !jscan.Valid(buf.Bytes()) {
			t.Fatalf("context JSON invalid: %v %s", err, buf.Bytes())
		}
		buf.Reset()
		if err := dom(s).WriteTreeJSON(&buf); err != nil || !jscan.Valid(buf.Bytes()) {
			t.Fatalf("tree JSON invalid: %v %s", err, buf.Bytes())
		}
		_ = dom(s).WriteTreeJSON(io.Discard)
		v := d.NewTreeView(leaf, model.FilterAll)
		_ = v.Lines(v.NearestVisible(leaf), "/home")
	})
}
