package pi

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"skein/internal/formattest"
	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
)

// FuzzParse feeds damaged session files to every reader: none may panic or
// loop, whatever the bytes.
func FuzzParse(f *testing.F) {
	formattest.AddFiles(f, 64<<10, filepath.Join("..", "..", "testdata", "pi", "*", "*.jsonl"),
		filepath.Join("..", "..", "testdata", "pi", "store", "*", "*.jsonl"))
	f.Add([]byte(`{"type":"session","id":"x"}` + "\n" + `{"type":"message","id":"a","parentId":"b","message":{"role":"user","content":"x"}}` + "\n" + `{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","content":[]}}`))
	for _, m := range []string{`{"role":"user","content":"a\/b"}`, `{"role":"user","content":"\u00e9"}`, `{"ro\u006ce":"user","content":"x"}`,
		`{"role":"user","content":[{"type":"text","text":"a\\u0041"}]}`, `{"role":"user","content":[{"x":{"y":["\/"]}}]}`, `{"role":"user","content":"\\\/"}`,
		`{"role":"user","content":"caf\u00e9 \n\t"}`, `{"role":"user","content":"é"}`, "{\"role\":\"user\",\"content\":\"\xff\"}"} {
		f.Add([]byte(`{"type":"session","id":"x"}` + "\n" + `{"type":"message","id":"a","message":` + m + "}\n"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		for i := range s.Entries {
			if e := &s.Entries[i]; e.Message != nil && e.copyable != jsjson.Copyable(e.Message) {
				t.Fatalf("line %d: copyable %v, jsjson.Copyable says otherwise", e.Line, e.copyable)
			}
			if len(s.Path(i)) > len(s.Entries) {
				t.Fatal("path longer than the session: a cycle was followed")
			}
		}
		leaf := s.Leaf()
		ctx := s.BuildContext(leaf)
		_ = s.WriteContextJSON(io.Discard, ctx)
		_ = s.PlanCompaction(leaf, 10)
		_ = s.WriteTreeJSON(io.Discard)
		v := s.Domain(model.SessionInfo{}).NewTreeView(leaf, model.FilterAll)
		_ = v.Lines(v.NearestVisible(leaf), "/home")
		var buf bytes.Buffer
		if err := s.WriteContextJSON(&buf, ctx); err == nil && !jsonValid(buf.Bytes()) {
			t.Fatalf("context JSON invalid: %s", buf.Bytes())
		}
	})
}

func jsonValid(b []byte) bool { return jscan.Valid(b) }
