package claude

import (
	"fmt"
	"strings"
	"testing"
)

// Claude Code 1.0.98 chained its parallel results one after the other:
// the same one branch, every call answered.
func TestParallelOlderLog(t *testing.T) {
	s := open(t, initRun)
	if got := s.Info(initRun, 0).Branches; got != 1 {
		t.Errorf("%d branches", got)
	}
	if why := unanswered(s, s.Leaf()); why != "" {
		t.Error(why)
	}
}

// A batch of results hung on their calls' blocks (a2 is a1's reply, one
// entry) is one chain, and a rewind after it is still a branch.
func TestParallelThenRewind(t *testing.T) {
	var b strings.Builder
	n := 0
	add := func(uuid, parent, typ, msg string) {
		n++
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		fmt.Fprintf(&b, `{"parentUuid":%s,"isSidechain":false,"sessionId":"s","type":%q,"message":%s,"uuid":%q,"timestamp":"2026-11-02T09:00:%02d.000Z"}`+"\n", p, typ, msg, uuid, n)
	}
	use := func(id string) string {
		return `{"id":"msg_1","role":"assistant","model":"m","content":[{"type":"tool_use","id":"` + id + `","name":"Bash","input":{}}]}`
	}
	result := func(id string) string {
		return `{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":"ok"}]}`
	}
	text := func(role, t string) string {
		return `{"id":"msg_` + t + `","role":"` + role + `","content":"` + t + `"}`
	}
	add("u1", "", "user", text("user", "go"))
	add("a1", "u1", "assistant", use("x"))
	add("a2", "a1", "assistant", use("y"))
	add("ry", "a2", "user", result("y"))
	add("rx", "a1", "user", result("x"))
	add("a3", "rx", "assistant", text("assistant", "done"))
	add("u2", "a3", "user", text("user", "first try"))
	add("u3", "a3", "user", text("user", "second try"))
	s, err := Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"ry": "a1", "rx": "ry", "a3": "rx", "u2": "a3", "u3": "a3"} {
		if got := idOf(s, s.Parent(s.lineEntryOf(t, id))); got != want {
			t.Errorf("parent of %s: %s, want %s", id, got, want)
		}
	}
	if got := s.Info("s.jsonl", 0).Branches; got != 2 {
		t.Errorf("%d branches, want 2 (the rewind)", got)
	}
	if why := unanswered(s, s.Leaf()); why != "" {
		t.Error(why)
	}
}

func (s *Session) lineEntryOf(t *testing.T, uuid string) int {
	t.Helper()
	k, ok := s.Index(uuid)
	if !ok {
		t.Fatalf("no entry %s", uuid)
	}
	return k
}
