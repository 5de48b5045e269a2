package claudeai

import (
	"fmt"
	"strings"
	"testing"

	"skein/internal/formattest"
)

// syntheticExport is an export of n conversations of 40 messages each:
// prompts with an attachment, answers with thinking, a tool call and its
// result, and text with citations; one edited prompt per conversation.
func syntheticExport(n int) []byte {
	var b strings.Builder
	b.WriteString("[")
	para := strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 20)
	for c := range n {
		if c > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"uuid":"conv-%d","name":"Conversation %d","summary":"%s","created_at":"2024-06-20T10:00:00.000000Z","updated_at":"2024-06-20T11:00:00.000000Z","account":{"uuid":"acct"},"chat_messages":[`, c, c, para[:200])
		parent := "00000000-0000-4000-8000-000000000000"
		for m := range 40 {
			if m > 0 {
				b.WriteString(",")
			}
			id := fmt.Sprintf("c%d-m%d", c, m)
			p := parent
			if m == 20 {
				p = fmt.Sprintf("c%d-m%d", c, 17) // an edited prompt
			}
			ts := fmt.Sprintf("2024-06-20T10:%02d:%02d.123456Z", m/60, m%60)
			if m%2 == 0 {
				fmt.Fprintf(&b, `{"uuid":"%s","text":"%s","content":[{"type":"text","text":"%s","start_timestamp":"%s","stop_timestamp":"%s","flags":null,"citations":[]}],"sender":"human","created_at":"%s","updated_at":"%s","attachments":[{"file_name":"notes.txt","file_size":1200,"file_type":"text/plain","extracted_content":"%s"}],"files":[],"parent_message_uuid":"%s"}`,
					id, para[:100], para[:100], ts, ts, ts, ts, para, p)
			} else {
				fmt.Fprintf(&b, `{"uuid":"%s","text":"","content":[{"type":"thinking","thinking":"%s","summaries":[{"summary":"Thinking"}],"cut_off":false,"start_timestamp":"%s"},{"type":"tool_use","id":"toolu_%s","name":"web_search","input":{"query":"q %d"},"message":"Searching the web"},{"type":"tool_result","tool_use_id":"toolu_%s","name":"web_search","content":[{"type":"knowledge","title":"T","url":"https://example.com/%d","text":"%s"}],"is_error":false},{"type":"text","text":"%s","citations":[{"uuid":"x","start_index":0,"end_index":5,"details":{"type":"web_search_citation","url":"https://example.com"}}]}],"sender":"assistant","created_at":"%s","updated_at":"%s","attachments":[],"files":[],"parent_message_uuid":"%s"}`,
					id, para[:300], ts, id, m, id, m, para[:400], para, ts, ts, p)
			}
			parent = id
		}
		b.WriteString("]}")
	}
	b.WriteString("]")
	return []byte(b.String())
}

func BenchmarkRead(b *testing.B) {
	data := syntheticExport(200)
	formattest.Throughput(b, int64(len(data)), func() error {
		convs, err := Read(data)
		if err == nil && len(convs) != 200 {
			err = fmt.Errorf("%d conversations, want 200", len(convs))
		}
		return err
	})
}

func TestSynthetic(t *testing.T) {
	convs, err := Read(syntheticExport(3))
	if err != nil || len(convs) != 3 {
		t.Fatal(len(convs), err)
	}
	for _, c := range convs {
		s := checkLines(t, c.Lines)
		allPaired(t, contextOf(s))
	}
}
