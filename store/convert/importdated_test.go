package convert

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skein/store"
	"skein/store/pi"
)

// Two exports of the same day's conversations, each with an untitled one
// whose texts end their lines with CRLF and an empty one: created
// 2024-01-05, last modified 2024-01-07.
var datedExports = map[string]string{
	"claude-ai": `[{"uuid":"c1","name":"","created_at":"2024-01-05T10:00:00Z","updated_at":"2024-01-07T10:00:00Z","chat_messages":[{"uuid":"m1","text":"line one\r\nline two","content":[{"type":"text","text":"line one\r\nline two"}],"sender":"human","created_at":"2024-01-05T10:00:01Z"},{"uuid":"m2","text":"ok\r\nyes","content":[{"type":"text","text":"ok\r\nyes"}],"sender":"assistant","created_at":"2024-01-07T10:00:00Z","parent_message_uuid":"m1"}]},
 {"uuid":"c2","name":"Empty one","created_at":"2024-01-05T10:00:00Z","updated_at":"2024-01-07T10:00:00Z","chat_messages":[]}]`,
	"chatgpt": `[{"id":"g1","title":null,"create_time":1704448800,"update_time":1704621600,"current_node":"n2","mapping":{"n0":{"id":"n0","message":null,"parent":null,"children":["n1"]},"n1":{"id":"n1","parent":"n0","children":["n2"],"message":{"id":"n1","author":{"role":"user"},"create_time":1704448801,"content":{"content_type":"text","parts":["line one\r\nline two"]}}},"n2":{"id":"n2","parent":"n1","children":[],"message":{"id":"n2","author":{"role":"assistant"},"create_time":1704621600,"content":{"content_type":"text","parts":["ok\r\nyes"]}}}}},
 {"id":"g2","title":"Empty one","create_time":1704448800,"update_time":1704621600,"current_node":"n0","mapping":{"n0":{"id":"n0","message":null,"parent":null,"children":[]}}}]`,
}

// An import of a ChatGPT or claude.ai export is dated as its source, into
// pi as into Dhara: pi's header and file name say the conversation's
// creation (they said the day of the import, after its last message). A
// CRLF is a line break (show printed a ␍ at the end of every line). A
// conversation with no message is skipped in both formats (claude.ai's
// became an empty session), and an untitled one is named as the list
// names it, by its first message (it was named by the export's file).
func TestImportDatedAndShownAsTheSource(t *testing.T) {
	now := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	for format, data := range datedExports {
		src := filepath.Join(t.TempDir(), "conversations.json")
		if err := os.WriteFile(src, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, to := range Targets {
			what := format + " --to " + to
			out := t.TempDir()
			rs, skipped, err := ImportFileSkipping(src, Options{To: to, Out: out, Now: now, Env: store.Env{Home: t.TempDir(), WorkingDirPath: out}})
			if err != nil || len(rs) != 1 {
				t.Fatalf("%s: %v, %v", what, rs, err)
			}
			if len(skipped) != 1 || skipped[0].Title != "Empty one" {
				t.Errorf("%s: skipped %+v, want the empty conversation", what, skipped)
			}
			if rs[0].Listed != "line one\nline two" {
				t.Errorf("%s: the untitled conversation is named %q, not by its first message", what, rs[0].Listed)
			}
			s, err := store.Open(rs[0].Path)
			if err != nil {
				t.Fatal(err)
			}
			created, _ := time.Parse(time.RFC3339, "2024-01-05T10:00:00Z")
			if got := int64(s.Info.Created); got != created.UnixMilli() {
				t.Errorf("%s: created %s, want the source's %s", what, time.UnixMilli(got).UTC(), created)
			}
			if to == "pi" {
				if base := filepath.Base(rs[0].Path); !strings.HasPrefix(base, "2024-01-05T10-00-00-000Z_") {
					t.Errorf("%s: file named %s, not by the source's creation", what, base)
				}
				h, err := pi.ReadHeader(rs[0].Path)
				if err != nil || h.Timestamp != "2024-01-05T10:00:00.000Z" {
					t.Errorf("%s: header dated %q (%v)", what, h.Timestamp, err)
				}
			}
			var texts []string
			ctx := s.BuildContext(s.Leaf())
			for _, m := range ctx.Messages {
				msg := s.Message(m)
				texts = append(texts, msg.Text("|"))
			}
			if got := strings.Join(texts, "|"); got != "line one\nline two|ok\nyes" {
				t.Errorf("%s: texts %q, want each CRLF a line break", what, got)
			}
			var all []byte
			filepath.Walk(out, func(p string, fi os.FileInfo, err error) error {
				if err == nil && !fi.IsDir() {
					b, _ := os.ReadFile(p)
					all = append(all, b...)
				}
				return nil
			})
			if bytes.Contains(all, []byte("Empty one")) {
				t.Errorf("%s: the empty conversation was written", what)
			}
		}
	}
}
