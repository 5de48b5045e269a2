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

// Ids that share their first 8 characters (UUIDv7s of the same minute)
// are shown as long as it takes to tell them apart; others as 8; the same
// id twice as 8.
func TestShortIDsTellThemApart(t *testing.T) {
	ids := []string{
		"019cadc6-9a80-7550-a789-649ae3e60458",
		"019cadc6-9a81-7000-8000-000000000001",
		"01a1f83a-0000-7000-8000-000000000000",
		"abc",
		"019cadc6-9a80-7550-a789-649ae3e60458",
	}
	want := []string{"019cadc6-9a80", "019cadc6-9a81", "01a1f83a", "abc", "019cadc6-9a80"}
	got := ShortIDs(ids)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: %q, want %q", ids[i], got[i], want[i])
		}
	}
}
