package pi

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// The context is written as pi would print it: a message pi wrote is copied
// byte for byte, one with bytes that are not UTF-8 or escapes that
// JSON.stringify does not write is rewritten, and so is every other value
// copied from the file.
func TestContextJSONAsPiWritesIt(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-03-02T09:00:00.000Z","cwd":"/w"}`,
		"{\"type\":\"model_change\",\"id\":\"a1\",\"parentId\":null,\"timestamp\":\"2026-03-02T09:00:00.000Z\",\"provider\":\"x\",\"modelId\":\"y\"}",
		"{\"type\":\"thinking_level_change\",\"id\":\"a2\",\"parentId\":\"a1\",\"timestamp\":\"2026-03-02T09:00:00.000Z\",\"thinkingLevel\":\"hi\xff\"}",
		`{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-03-02T09:00:01.000Z","message":{"role":"user","content":"as pi wrote it: \u001b \ud800 \n","timestamp":1772442001000}}`,
		"{\"type\":\"message\",\"id\":\"a4\",\"parentId\":\"a3\",\"timestamp\":\"2026-03-02T09:00:02.000Z\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"a\xed\xa0\x80b \\u00e9 \\/ \xf0\x9f\x98\"}],\"provider\":\"an\xe2\x82thropic\",\"model\":\"m\\u0041\",\"usage\":{\"input\":1.0, \"output\":2e1},\"timestamp\":1772442002000}}",
		"{\"type\":\"branch_summary\",\"id\":\"a5\",\"parentId\":\"a4\",\"timestamp\":\"2026-03-02T09:00:03.000Z\",\"fromId\":\"a4\",\"summary\":\"\\ud83d\\ude00 \\uD800\"}",
	}
	s, err := Parse([]byte(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := s.WriteContextJSON(&out, s.BuildContext(s.Leaf())); err != nil {
		t.Fatal(err)
	}
	want := `{"messages":[` +
		`{"role":"user","content":"as pi wrote it: \u001b \ud800 \n","timestamp":1772442001000},` +
		`{"role":"assistant","content":[{"type":"text","text":"a` + "\uFFFD\uFFFD\uFFFD" + `b é / ` + "\uFFFD" + `"}],"provider":"an` + "\uFFFD" + `thropic","model":"mA","usage":{"input":1,"output":20},"timestamp":1772442002000},` +
		`{"role":"branchSummary","summary":"😀 \ud800","fromId":"a4","timestamp":1772442003000}` +
		`],"entryIds":["a3","a4","a5"],"thinkingLevel":"hi` + "\uFFFD" + `","model":{"provider":"an` + "\uFFFD" + `thropic","modelId":"mA"}}`
	if got := out.String(); got != want {
		t.Errorf("context JSON\n got %s\nwant %s", got, want)
	}
	if !utf8.Valid(out.Bytes()) {
		t.Error("not UTF-8")
	}
	// The message pi wrote is the file's own bytes.
	if !bytes.Contains(out.Bytes(), []byte(lines[3][strings.Index(lines[3], `{"role"`):len(lines[3])-1])) {
		t.Error("a message pi wrote was not copied as it is")
	}
}
