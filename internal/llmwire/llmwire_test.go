package llmwire

import (
	"encoding/json"
	"testing"
)

func TestBlocks(t *testing.T) {
	for _, c := range []struct {
		content string
		want    []string // each block's type and text
	}{
		{`"hi"`, []string{"text:hi"}},
		{` "hi"`, []string{"text:hi"}},
		{`[{"type":"text","text":"a"},{"type":7},{"type":"thinking","thinking":"b"},"x"]`, []string{"text:a", "thinking:"}},
		{`[]`, nil},
		{`{"type":"text"}`, nil},
		{`null`, nil},
		{``, nil},
		{`[1,`, nil},
	} {
		var got []string
		for _, b := range Blocks([]byte(c.content)) {
			got = append(got, b.Type+":"+b.Text)
		}
		if len(got) != len(c.want) {
			t.Errorf("Blocks(%s) = %q, want %q", c.content, got, c.want)
			continue
		}
		for k := range got {
			if got[k] != c.want[k] {
				t.Errorf("Blocks(%s) = %q, want %q", c.content, got, c.want)
			}
		}
	}
	bs := Blocks([]byte(`[{"type":"image","source":{"media_type":"image/png","data":"AAAA"}},{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"ok"}],"is_error":true}]`))
	if len(bs) != 2 || bs[0].Source == nil || bs[0].Source.MediaType != "image/png" || bs[0].Source.Data != "AAAA" ||
		bs[1].ToolUseID != "t1" || !bs[1].IsError || string(bs[1].Content) != `[{"type":"text","text":"ok"}]` {
		t.Errorf("Blocks read %+v", bs)
	}
}

func TestChatToolCall(t *testing.T) {
	c := ChatToolCall{ID: "c1", Type: "function"}
	c.Function.Name, c.Function.Arguments = "read", `{"path":"a"}`
	out, err := json.Marshal(c)
	if want := `{"id":"c1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a\"}"}}`; err != nil || string(out) != want {
		t.Errorf("Marshal = %s, %v; want %s", out, err, want)
	}
}

func TestBetween(t *testing.T) {
	for _, c := range []struct {
		s, in string
		ok    bool
	}{
		{"a <q>b</q> <q>c</q>", "b", true},
		{"<q></q>", "", true},
		{"</q><q>b", "b", false}, // the text after open, as strings.Cut leaves it
		{"no tag", "", false},
	} {
		if in, ok := Between(c.s, "<q>", "</q>"); in != c.in || ok != c.ok {
			t.Errorf("Between(%q) = %q, %v; want %q, %v", c.s, in, ok, c.in, c.ok)
		}
	}
}
