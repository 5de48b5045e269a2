package synth

import (
	"encoding/json"
	"strings"
)

// HostileText is session text that must stay text everywhere: escape
// sequences, markup, links with active schemes, a closing fence and
// details, path climbing, a lone surrogate's bytes, a huge line.
var HostileText = []string{
	"\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
	"</script><script>alert(1)</script><img src=x onerror=alert(2)>",
	"[click](javascript:alert(1)) <a href=\"javascript:alert(3)\">x</a> data:text/html,<b>",
	"```\n</details>\n~~~\n<details open><summary>x</summary>",
	"../../../../etc/passwd /etc/shadow ..\\..\\windows",
	"\u2028\u2029\x00\x7f\xed\xa0\x80 \xff\xfe",
	strings.Repeat("huge line ", 200000),
}

// HostileImports are files of every import format carrying HostileText in
// each place text goes, with ids that climb paths and values of the wrong
// type.
func HostileImports() map[string]string {
	h := HostileText
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	out := map[string]string{}
	var chat []string
	for k, t := range h {
		chat = append(chat, `{"role":"user","content":`+q(t)+`}`,
			`{"role":"assistant","content":null,"tool_calls":[{"id":`+q("../"+t[:min(len(t), 40)])+`,"type":"function","function":{"name":`+q(t[:min(len(t), 60)])+`,"arguments":`+q(`{"p":`+q(t)+`}`)+`}}]}`,
			`{"role":"tool","tool_call_id":`+q("../"+t[:min(len(t), 40)])+`,"content":`+q(t)+`}`)
		if k == 0 {
			chat = append(chat, `{"role":42,"content":{"x":[1,2]}}`, `{"role":"assistant","tool_calls":"nope"}`)
		}
	}
	out["chat.json"] = "[" + strings.Join(chat, ",") + "]"
	var mapping []string
	parent := `null`
	for k, t := range h {
		id := q("../n" + string(rune('a'+k)))
		mapping = append(mapping, id+`:{"id":`+id+`,"parent":`+parent+`,"children":[],"message":{"id":`+id+`,"author":{"role":"user"},"create_time":"soon","content":{"content_type":"text","parts":[`+q(t)+`,{"x":1}]}}}`)
		parent = id
	}
	out["conversations.json"] = `[{"title":` + q(h[1]) + `,"id":"../../x","current_node":` + parent + `,"mapping":{` + strings.Join(mapping, ",") + `}}]`
	var msgs []string
	for k, t := range h {
		sender := "human"
		if k%2 == 1 {
			sender = "assistant"
		}
		msgs = append(msgs, `{"uuid":`+q("../u"+string(rune('a'+k)))+`,"sender":"`+sender+`","created_at":7,"text":`+q(t)+`,"content":[{"type":"text","text":`+q(t)+`},{"type":"tool_use","id":"../t","name":`+q(t[:min(len(t), 30)])+`,"input":{"p":`+q(t)+`}},{"type":"tool_result","tool_use_id":"../t","content":`+q(t)+`}]}`)
	}
	out["claude-ai.json"] = `[{"uuid":"../../c","name":` + q(h[0]) + `,"chat_messages":[` + strings.Join(msgs, ",") + `]}]`
	var cc []string
	prev := "null"
	for k, t := range h {
		u := q("../cc" + string(rune('a'+k)))
		cc = append(cc, `{"type":"user","uuid":`+u+`,"parentUuid":`+prev+`,"sessionId":"../s","cwd":"/w","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":`+q(t)+`}}`)
		prev = u
		a := q("../ca" + string(rune('a'+k)))
		cc = append(cc, `{"type":"assistant","uuid":`+a+`,"parentUuid":`+prev+`,"sessionId":"../s","cwd":"/w","timestamp":"2026-01-01T00:00:01Z","message":{"id":"m","role":"assistant","content":[{"type":"text","text":`+q(t)+`},{"type":"tool_use","id":"../x","name":"Bash","input":{"command":`+q(t)+`}}]}}`)
		prev = a
		r := q("../cr" + string(rune('a'+k)))
		cc = append(cc, `{"type":"user","uuid":`+r+`,"parentUuid":`+prev+`,"sessionId":"../s","cwd":"/w","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"../x","content":`+q(t)+`}]}}`)
		prev = r
	}
	cc = append(cc, `{"type":"user","uuid":7,"parentUuid":[],"message":"nope"}`, `{"type":`+q(h[0])+`}`)
	out["claude.jsonl"] = strings.Join(cc, "\n") + "\n"
	var cx []string
	cx = append(cx, `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"../../r","cwd":`+q(h[4])+`}}`)
	for _, t := range h {
		cx = append(cx, `{"timestamp":"2026-01-01T00:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":`+q(t)+`}]}}`,
			`{"timestamp":"2026-01-01T00:00:02Z","type":"response_item","payload":{"type":"function_call","name":`+q(t[:min(len(t), 30)])+`,"arguments":`+q(t)+`,"call_id":"../c"}}`,
			`{"timestamp":"2026-01-01T00:00:03Z","type":"response_item","payload":{"type":"function_call_output","call_id":"../c","output":`+q(t)+`}}`)
	}
	cx = append(cx, `{"timestamp":5,"type":"response_item","payload":"nope"}`)
	out["rollout-2026-01-01T00-00-00-00000000-0000-0000-0000-000000000000.jsonl"] = strings.Join(cx, "\n") + "\n"
	var p []string
	p = append(p, `{"type":"session","version":3,"id":"../../p","timestamp":"2026-01-01T00:00:00.000Z","cwd":`+q(h[4])+`}`)
	parent = "null"
	for k, t := range h {
		id := q("../e" + string(rune('a'+k)))
		p = append(p, `{"type":"message","id":`+id+`,"parentId":`+parent+`,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":`+q(t)+`,"timestamp":1}}`)
		parent = id
		id2 := q("../f" + string(rune('a'+k)))
		p = append(p, `{"type":"message","id":`+id2+`,"parentId":`+parent+`,"timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":`+q(t)+`},{"type":"toolCall","id":"../k","name":`+q(t[:min(len(t), 20)])+`,"arguments":{"x":`+q(t)+`}}],"timestamp":2}}`)
		parent = id2
	}
	p = append(p, `{"type":"label","id":"l","parentId":`+parent+`,"timestamp":"x","targetId":"../ea","label":`+q(h[0])+`}`, `{"type":"message","id":9,"message":"nope"}`)
	out["pi.jsonl"] = strings.Join(p, "\n") + "\n"
	return out
}
