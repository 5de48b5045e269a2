package synth

import (
	"bytes"
	"fmt"
	"strings"

	"skein/internal/jsjson"
)

// ClaudeLog writes a Claude Code log of about size bytes, shaped as Claude
// Code 2.1 writes one: each turn a file-history snapshot, a prompt, a reply
// split over a thinking, a text and two tool_use lines sharing message.id,
// a progress line, two tool results (file contents, some kilobytes, with
// escapes), a closing reply and a turn_duration line; now and then a
// rewind, and a compaction.
func ClaudeLog(size int) []byte {
	var b bytes.Buffer
	b.Grow(size + 64<<10)
	sid := "6f1d2c3b-4a59-4e87-9d10-2b3c4d5e6f70"
	head := func(uuid, parent string, n int) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":"/home/dev/big","sessionId":"%s","version":"2.1.20","gitBranch":"main",`, p, sid) +
			fmt.Sprintf(`"uuid":"%s","timestamp":"2026-03-01T%02d:%02d:%02d.%03dZ",`, uuid, n/3600000%24, n/60000%60, n/1000%60, n%1000)
	}
	chunk := strings.Repeat(`func f(x int) int { return x * 2 } // "quoted" \ tab	and ünïcode\n`, 40)
	body := string(jsjson.AppendString(nil, chunk))
	usage := `"usage":{"input_tokens":12,"cache_creation_input_tokens":1500,"cache_read_input_tokens":42000,"output_tokens":310,"service_tier":"standard"}`
	prev := ""
	ms := 0
	for turn := 0; b.Len() < size; turn++ {
		id := func(k string) string { return fmt.Sprintf("%08x-%s-4000-8000-%012x", turn, k, turn) }
		parent := prev
		if turn%50 == 49 {
			// A rewind: the prompt answers the last turn's first reply again.
			parent = fmt.Sprintf("%08x-a002-4000-8000-%012x", turn-1, turn-1)
		}
		ms += 1000
		fmt.Fprintf(&b, `{"type":"file-history-snapshot","messageId":"%s","snapshot":{"messageId":"%s","trackedFileBackups":{},"timestamp":"2026-03-01T00:00:00.000Z"},"isSnapshotUpdate":false}`+"\n", id("u001"), id("u001"))
		b.WriteString(head(id("u001"), parent, ms))
		fmt.Fprintf(&b, `"type":"user","message":{"role":"user","content":"Please look at file %d and fix the bug in it"},"permissionMode":"default"}`+"\n", turn)
		mid := fmt.Sprintf("msg_01%022d", turn)
		lines := []string{
			`{"type":"thinking","thinking":"I should read the file first, then edit it.","signature":"EqoBCkYIBxgCKkB"}`,
			`{"type":"text","text":"I'll read the file and run the tests."}`,
			fmt.Sprintf(`{"type":"tool_use","id":"toolu_%d_1","name":"Read","input":{"file_path":"/home/dev/big/f%d.go"}}`, turn, turn),
			fmt.Sprintf(`{"type":"tool_use","id":"toolu_%d_2","name":"Bash","input":{"command":"go test ./...","description":"Run tests"}}`, turn),
		}
		p := id("u001")
		for k, c := range lines {
			u := id(fmt.Sprintf("a%03d", k+1))
			ms += 100
			b.WriteString(head(u, p, ms))
			fmt.Fprintf(&b, `"message":{"id":"%s","type":"message","role":"assistant","model":"claude-opus-4-5-20251101","content":[%s],"stop_reason":null,"stop_sequence":null,%s},"requestId":"req_%d","type":"assistant"}`+"\n", mid, c, usage, turn)
			p = u
		}
		ms += 10
		b.WriteString(head(id("p001"), p, ms))
		fmt.Fprintf(&b, `"type":"progress","data":{"type":"hook_progress","hookEvent":"PreToolUse","hookName":"PreToolUse:Read"},"parentToolUseID":"toolu_%d_1","toolUseID":"toolu_%d_1"}`+"\n", turn, turn)
		for k := 1; k <= 2; k++ {
			u := id(fmt.Sprintf("r%03d", k))
			ms += 200
			b.WriteString(head(u, p, ms))
			fmt.Fprintf(&b, `"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d_%d","type":"tool_result","content":%s}]},"toolUseResult":{"type":"text","file":{"filePath":"/home/dev/big/f%d.go","content":%s,"numLines":40}},"sourceToolAssistantUUID":"%s"}`+"\n", turn, k, body, turn, body, p)
			p = u
		}
		u := id("a009")
		ms += 500
		b.WriteString(head(u, p, ms))
		fmt.Fprintf(&b, `"message":{"id":"%s_b","type":"message","role":"assistant","model":"claude-opus-4-5-20251101","content":[{"type":"text","text":"Fixed: the loop now stops at len(x)."}],"stop_reason":"end_turn","stop_sequence":null,%s},"requestId":"req_%d_b","type":"assistant"}`+"\n", mid, usage, turn)
		b.WriteString(head(id("s001"), u, ms))
		b.WriteString(`"type":"system","subtype":"turn_duration","durationMs":4200,"isMeta":false}` + "\n")
		prev = u
		if turn%150 == 149 {
			cb := id("c001")
			b.WriteString(strings.Replace(head(cb, "", ms), `"parentUuid":null`, `"parentUuid":null,"logicalParentUuid":"`+u+`"`, 1))
			b.WriteString(`"type":"system","subtype":"compact_boundary","content":"Conversation compacted","level":"info","compactMetadata":{"trigger":"auto","preTokens":160000}}` + "\n")
			cs := id("c002")
			b.WriteString(head(cs, cb, ms))
			b.WriteString(`"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation. Summary: files were fixed."},"isCompactSummary":true,"isVisibleInTranscriptOnly":true}` + "\n")
			prev = cs
		}
	}
	return b.Bytes()
}
