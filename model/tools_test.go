package model

import "testing"

func TestKeyArgument(t *testing.T) {
	cases := map[string]string{
		`{"command":"go test ./..."}`:           "go test ./...",
		`{"path":"a.go","x":1}`:                 "a.go",
		`{"path":"","command":"ls"}`:            "ls",
		`{"cmd":["git","log",5]}`:               "git log 5",
		`{"path":"a","path":"b"}`:               "b", // JSON.parse keeps the last
		`{"url":"https://x.dev/\u00e9"}`:        "https://x.dev/é",
		`{"other":1}`:                           "",
		`{"description":{"a":1},"query":"q q"}`: "q q",
	}
	for in, want := range cases {
		if got := KeyArgument([]byte(in)); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}

func TestPairTools(t *testing.T) {
	call := func(id string) Block { return Block{Type: BlockToolCall, Call: ToolCall{ID: id, Name: "read"}} }
	msgs := []Message{
		{Role: RoleAssistant, Blocks: []Block{call("a"), call("b")}},
		{Role: RoleToolResult, ToolCallID: "b"},
		{Role: RoleToolResult, ToolCallID: "x"}, // answers no call
		{Role: RoleToolResult, ToolCallID: "a"},
		{Role: RoleToolResult, ToolCallID: "a"}, // a second answer: the first wins
	}
	got := PairTools(msgs)
	if len(got) != 2 || got["a"] != 3 || got["b"] != 1 {
		t.Errorf("pairs %v", got)
	}
}
