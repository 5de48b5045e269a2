package codex

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"skein/internal/jscan"
	"skein/model"
)

// FuzzParse feeds damaged rollouts to every reader: none may panic or
// loop, the tree stays a forest, and what is written is JSON.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "*.jsonl"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"timestamp":"t","type":"compacted","payload":{"message":"m","replacement_history":[{"type":"function_call_output","call_id":"c"},{"type":"function_call","call_id":"c","name":"n","arguments":"{}"},{"type":"web_search_call"}]}}` + "\n" +
		`{"timestamp":"t","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":2}}`))
	f.Add([]byte(`{"type":"message","role":"user","content":[{"type":"input_text","text":"a"}]}` + "\n" +
		`{"timestamp":"t","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":1}}` + "\n" +
		`{"timestamp":"t","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":1}}`))
	f.Fuzz(body)
}

func body(t *testing.T, data []byte) {
	{
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
			if j, ok := s.Index(s.Entries[i].ID()); !ok || j != i {
				t.Fatalf("entry %d: index %d %v", i, j, ok)
			}
			_ = s.TreeText(i, "/home")
			_ = d.EntryMessage(i)
			_ = s.Detail(i)
		}
		for _, leaf := range []int{s.Leaf(), n / 2} {
			if leaf < 0 {
				continue
			}
			ctx := s.BuildContext(leaf)
			for _, m := range ctx.Messages {
				_ = dom(s).MessageTokens(m)
				_ = s.MessageHead(m)
			}
			_ = s.Summarized(leaf, ctx)
			var buf bytes.Buffer
			if err := s.WriteContextJSON(&buf, ctx); err != nil || !jscan.Valid(buf.Bytes()) {
				t.Fatalf("context JSON invalid: %v %s", err, buf.Bytes())
			}
			_ = s.BuildHistory(leaf)
		}
		_ = s.Stats()
		_ = s.Info("x.jsonl", 0)
		var buf bytes.Buffer
		if err := s.WriteTreeJSON(&buf); err != nil || !jscan.Valid(buf.Bytes()) {
			t.Fatalf("tree JSON invalid: %v %s", err, buf.Bytes())
		}
		_ = s.WriteTreeJSON(io.Discard)
		v := d.NewTreeView(s.Leaf(), model.FilterAll)
		_ = v.Lines(v.NearestVisible(s.Leaf()), "/home")
	}
}
