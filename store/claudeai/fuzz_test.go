package claudeai

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// FuzzRead feeds damaged exports to Read: it may refuse them, but never
// panic, and every conversation it gives must be a session pi reads
// without a complaint.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"conversations.json", "single.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	for _, s := range []string{
		`[]`, `{}`, `{"chat_messages":null}`, `{"chat_messages":[null,1,"x",[],{}]}`,
		`{"uuid":"c","name":"n","chat_messages":[{"uuid":"a","parent_message_uuid":"b","sender":"human","text":"A"},{"uuid":"b","parent_message_uuid":"a","sender":"assistant","text":"B"}]}`,
		`{"chat_messages":[{"uuid":"a","sender":"assistant","content":[{"type":"tool_use","input":{"_tool_call_id":"t"}},{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"r"},{"type":"image"}]},{"type":"token_budget"},{"type":"text","text":"x","citations":[{"url":"u"}]}]}]}`,
		`{"chat_messages":[{"sender":"human","content":"s","attachments":[{"file_name":"","extracted_content":"p"}],"files":[{"file_name":"f","file_uuid":"1"}],"files_v2":[{"file_name":"f","file_uuid":"1"}]}]}`,
		`[{"chat_messages":[{"uuid":"a","sender":"human","created_at":"2024-06-20T10:00:00.123456Z","parent_message_uuid":"00000000-0000-4000-8000-000000000000"}],"current_leaf_message_uuid":"a"}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = Detect(data)
		convs, err := Read(data)
		if err != nil {
			if len(convs) != 0 {
				t.Fatalf("an error and %d conversations", len(convs))
			}
			return
		}
		for _, c := range convs {
			s := checkLines(t, c.Lines)
			leaf := s.Leaf()
			if strings.TrimSpace(c.Title) != "" && (leaf < 0 || s.Entry(leaf).Type != "session_info") {
				t.Fatalf("titled %q, but the last line is not its session_info", c.Title)
			}
			msgs := formattest.Messages(s, s.BuildContext(leaf))
			_ = model.PairTools(msgs)
		}
	})
}
