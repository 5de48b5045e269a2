package model

import (
	"fmt"
	"testing"
)

// MessageParts: an error, a result, a reply with text and a call, one with
// only thinking, one with nothing.
func TestMessageParts(t *testing.T) {
	call := Block{Type: BlockToolCall, Call: ToolCall{ID: "c", Name: "read", Input: []byte(`{"path":"/home/u/f"}`)}}
	for _, c := range []struct {
		msg  Message
		role string
		want string
	}{
		{Message{Role: RoleAssistant, Error: "boom\nmore"}, RoleAssistant, "[{error: boom more error}]"},
		{Message{Role: RoleToolResult, Blocks: []Block{{Type: BlockText, Text: "ok\nrest"}}}, RoleToolResult, "[{← ok muted}]"},
		{Message{Role: RoleAssistant, Blocks: []Block{{Type: BlockText, Text: "see"}, call}}, RoleAssistant, "[{assistant:  assistant} {see } { → read ~/f muted}]"},
		{Message{Role: RoleAssistant, Blocks: []Block{{Type: BlockThinking, Text: "hm\nm"}}}, RoleAssistant, "[{assistant:  assistant} {(thinking) hm m muted}]"},
		{Message{Role: RoleUser}, RoleUser, "[{user:  user} {(no text) muted}]"},
	} {
		if got := fmt.Sprint(MessageParts(&c.msg, c.role, "/home/u")); got != c.want {
			t.Errorf("%s\n want %s", got, c.want)
		}
	}
}
