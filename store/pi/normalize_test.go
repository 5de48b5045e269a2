package pi

import (
	"strings"
	"testing"
)

// The first seed's table: toolCallId, then id; toolName, then name; input,
// then arguments (the first that is an object); defaults "", "", {}.
func TestNormalizeToolCall(t *testing.T) {
	cases := []struct {
		block, id, name, input string
	}{
		{`{"type":"toolCall","id":"call_abc123","name":"read_file","arguments":{"path":"/etc/config"}}`, "call_abc123", "read_file", `{"path":"/etc/config"}`},
		{`{"type":"toolCall","toolCallId":"t1","id":"i1","toolName":"bash","name":"n","input":{"command":"ls"},"arguments":{"x":1}}`, "t1", "bash", `{"command":"ls"}`},
		{`{"type":"toolCall","id":"i1","input":"not an object","arguments":{"x":1}}`, "i1", "", `{"x":1}`},
		{`{"type":"toolCall","arguments":null}`, "", "", `{}`},
		{`{"type":"tool_use","id":7,"name":"x"}`, "", "x", `{}`},
	}
	for _, c := range cases {
		tc := NormalizeToolCall([]byte(c.block))
		if tc.ID != c.id || tc.Name != c.name || string(tc.Input) != c.input {
			t.Errorf("%s: got %q %q %s", c.block, tc.ID, tc.Name, tc.Input)
		}
	}
}

func TestFormatToolCallAsPi(t *testing.T) {
	cases := map[string]string{
		`read|{"path":"/home/dev/a.go","offset":10,"limit":5}`: "[read: ~/a.go:10-14]",
		`bash|{"command":"echo hi\nthere"}`:                    "[bash: echo hi there]",
		`grep|{"pattern":"TODO"}`:                              "[grep: /TODO/ in .]",
		`custom|{"a":1}`:                                       `[custom: {"a":1}]`,
	}
	for in, want := range cases {
		name, args, _ := strings.Cut(in, "|")
		if got := FormatToolCall(name, []byte(args), "/home/dev"); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}
