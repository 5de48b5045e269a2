package model

import (
	"strings"
	"testing"
)

// fakeTree is a session of messages given whole: entry i is msgs[i], its
// parent parent[i].
type fakeTree struct {
	parent []int
	msgs   []Message
}

func (f fakeTree) Len() int         { return len(f.parent) }
func (f fakeTree) Leaf() int        { return len(f.parent) - 1 }
func (f fakeTree) Parent(i int) int { return f.parent[i] }
func (f fakeTree) Raw(int) []byte   { return nil }
func (f fakeTree) Entry(i int) Entry {
	return Entry{Kind: EntryMessage, Role: f.msgs[i].Role, ID: string(rune('a' + i))}
}
func (f fakeTree) Message(m ContextMessage) Message { return f.msgs[m.Entry] }
func (f fakeTree) BuildContext(int) Context         { return Context{} }

func user(text string) Message {
	return Message{Role: RoleUser, Blocks: []Block{{Type: BlockText, Text: text}}}
}

func call(id, name, input string) Message {
	return Message{Role: RoleAssistant, Usage: &Usage{Input: 10, Output: 5, Cost: 0.5, HasCost: true},
		Blocks: []Block{{Type: BlockToolCall, Call: ToolCall{ID: id, Name: name, Input: []byte(input)}}}}
}

func result(id string, isErr bool) Message {
	return Message{Role: RoleToolResult, ToolCallID: id, IsError: isErr, Blocks: []Block{{Type: BlockText, Text: "ok"}}}
}

// branches is a pi-like session: a shared start that writes main.go, then
// two branches that edit it differently; the right one also writes a
// second file and makes an edit that fails.
func branches() *Session {
	msgs := []Message{
		user("make main.go"), // 0
		call("w", "write", `{"path":"main.go","content":"package main\n\nfunc main() {\n\tprintln(1)\n}\n"}`), // 1
		result("w", false), // 2
		user("use redis"),  // 3 left
		call("l", "edit", `{"path":"main.go","oldText":"println(1)","newText":"redis()"}`), // 4
		result("l", false), // 5
		user("use sqlite"), // 6 right, child of 2
		call("r", "edit", `{"path":"main.go","edits":[{"oldText":"println(1)","newText":"sqlite()"}]}`), // 7
		result("r", false), // 8
		call("n", "write", `{"path":"notes.md","content":"sqlite\n"}`), // 9
		result("n", false), // 10
		call("x", "edit", `{"path":"main.go","oldText":"nothing","newText":"x"}`), // 11
		result("x", true), // 12
	}
	parent := []int{-1, 0, 1, 2, 3, 4, 2, 6, 7, 8, 9, 10, 11}
	return NewSession(fakeTree{parent, msgs}, SessionInfo{Cwd: "/p"})
}

func TestCompareBranchesOfOneSession(t *testing.T) {
	s := branches()
	d := CompareSessions(DiffEnd{s, 5}, DiffEnd{s, 12})
	if !d.SameSession || d.Shared != 3 || d.SharedMessages != 3 {
		t.Fatalf("shared %d entries %d messages, same %v; want 3, 3, true", d.Shared, d.SharedMessages, d.SameSession)
	}
	if d.Left.LastCommon != 2 || d.Right.LastCommon != 2 {
		t.Errorf("last common %d %d, want 2 2", d.Left.LastCommon, d.Right.LastCommon)
	}
	if got := d.Left.Messages; len(got) != 3 || got[0] != 3 {
		t.Errorf("left's own messages %v, want [3 4 5]", got)
	}
	if got := d.Right.Messages; len(got) != 7 || got[0] != 6 {
		t.Errorf("right's own messages %v, want 6..12", got)
	}
	if len(d.Right.Calls) != 3 || !d.Right.Calls[2].Failed || d.Right.Calls[0].Failed {
		t.Errorf("right's calls %+v: the last one failed, the others not", d.Right.Calls)
	}
	if d.Left.Totals.TokensIn != 10 || d.Right.Totals.TokensIn != 30 || d.Left.All.TokensIn != 20 || d.Right.Totals.Cost != 1.5 {
		t.Errorf("tokens %v %v all %v cost %v", d.Left.Totals.TokensIn, d.Right.Totals.TokensIn, d.Left.All.TokensIn, d.Right.Totals.Cost)
	}
	if len(d.Files) != 2 || d.Files[0].Path != "/p/main.go" || d.Files[1].Path != "/p/notes.md" {
		t.Fatalf("files %+v", d.Files)
	}
	m := d.Files[0]
	if m.Left == nil || m.Right == nil || !m.Left.Known || !m.Right.Known {
		t.Fatalf("main.go: %+v %+v", m.Left, m.Right)
	}
	if !strings.Contains(m.Right.Content, "sqlite()") || !strings.Contains(m.Left.Content, "redis()") {
		t.Errorf("main.go at the ends: %q / %q", m.Left.Content, m.Right.Content)
	}
	for _, want := range []string{"--- left/p/main.go", "+++ right/p/main.go", "-\tredis()", "+\tsqlite()"} {
		if !strings.Contains(m.Diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, m.Diff)
		}
	}
	if n := d.Files[1]; n.Left != nil || n.Right == nil || n.Right.Content != "sqlite\n" || n.Diff != "" {
		t.Errorf("notes.md: %+v", n)
	}
}

func TestCompareTwoSessionsByMessages(t *testing.T) {
	s := branches()
	// The same conversation in another session whose tool inputs have
	// their keys in another order: only the right branch, as if imported.
	msgs := []Message{
		user("make main.go"),
		call("w2", "write", `{"content":"package main\n\nfunc main() {\n\tprintln(1)\n}\n","path":"main.go"}`),
		result("w2", false),
		user("use sqlite"),
	}
	o := NewSession(fakeTree{[]int{-1, 0, 1, 2}, msgs}, SessionInfo{Cwd: "/p"})
	d := CompareSessions(DiffEnd{s, 12}, DiffEnd{o, 3})
	if d.SameSession || d.Shared != 4 || d.Left.LastCommon != 6 || d.Right.LastCommon != 3 {
		t.Fatalf("shared %d, last common %d %d; want 4, 6, 3", d.Shared, d.Left.LastCommon, d.Right.LastCommon)
	}
	if len(d.Right.Messages) != 0 || len(d.Left.Messages) != 6 {
		t.Errorf("own messages %v / %v", d.Left.Messages, d.Right.Messages)
	}
}

func TestFileChangesOfEachAgent(t *testing.T) {
	cases := []struct {
		name, input string
		want        FileChange
	}{
		{"Write", `{"file_path":"/a","content":"x"}`, FileChange{Path: "/a", Kind: ChangeWrite, Content: "x"}},
		{"Edit", `{"file_path":"/a","old_string":"x","new_string":"y","replace_all":true}`, FileChange{Path: "/a", Kind: ChangeEdit, Edits: []TextEdit{{"x", "y", true}}}},
		{"MultiEdit", `{"file_path":"/a","edits":[{"old_string":"x","new_string":"y"}]}`, FileChange{Path: "/a", Kind: ChangeEdit, Edits: []TextEdit{{"x", "y", false}}}},
		{"Edit", `{"file_path":"/a","old_str":"x","new_str":"y"}`, FileChange{Path: "/a", Kind: ChangeEdit, Edits: []TextEdit{{"x", "y", false}}}},
		{"Edit", `{"path":"b","old_string":"x","new_string":"y"}`, FileChange{Path: "/p/b", Kind: ChangeEdit, Edits: []TextEdit{{"x", "y", false}}}},
		{"edit", `{"filePath":"/a","oldString":"x","newString":"y"}`, FileChange{Path: "/a", Kind: ChangeEdit, Edits: []TextEdit{{"x", "y", false}}}},
		{"edit", `{"file_path":"/a","old_string":"x","new_string":"y"}`, FileChange{Path: "/a", Kind: ChangeEdit, Edits: []TextEdit{{"x", "y", false}}}},
		{"replace", `{"file_path":"/a","old_string":"x","new_string":"y"}`, FileChange{Path: "/a", Kind: ChangeEdit, Edits: []TextEdit{{"x", "y", false}}}},
		{"write_file", `{"file_path":"/a","content":"x"}`, FileChange{Path: "/a", Kind: ChangeWrite, Content: "x"}},
		{"Create", `{"file_path":"/a","content":"x"}`, FileChange{Path: "/a", Kind: ChangeWrite, Content: "x"}},
		{"create", `{"path":"/a","file_text":"x"}`, FileChange{Path: "/a", Kind: ChangeWrite, Content: "x"}},
		{"write_to_file", `{"path":"/a","content":"x"}`, FileChange{Path: "/a", Kind: ChangeWrite, Content: "x"}},
		{"replace_in_file", `{"path":"/a","diff":"------- SEARCH\nx\n=======\ny\n+++++++ REPLACE"}`, FileChange{Path: "/a", Kind: ChangeEdit, Edits: []TextEdit{{"x", "y", false}}}},
		{"NotebookEdit", `{"notebook_path":"/a.ipynb","new_source":"x"}`, FileChange{Path: "/a.ipynb", Kind: ChangeOpaque}},
		{"apply_patch", `{"input":"*** Begin Patch\n*** Add File: n.txt\n+hi\n*** End Patch\n"}`, FileChange{Path: "/p/n.txt", Kind: ChangeWrite, Content: "hi\n"}},
	}
	for _, c := range cases {
		got := FileChanges(ToolCall{Name: c.name, Input: []byte(c.input)}, "/p")
		if len(got) != 1 || got[0].Path != c.want.Path || got[0].Kind != c.want.Kind || got[0].Content != c.want.Content ||
			len(got[0].Edits) != len(c.want.Edits) || len(c.want.Edits) == 1 && got[0].Edits[0] != c.want.Edits[0] {
			t.Errorf("%s %s: %+v, want %+v", c.name, c.input, got, c.want)
		}
	}
	if got := FileChanges(ToolCall{Name: "bash", Input: []byte(`{"command":"ls"}`)}, "/p"); got != nil {
		t.Errorf("bash: %+v", got)
	}
}

func TestParsePatchReplaysOnAKnownFile(t *testing.T) {
	p := "*** Begin Patch\n*** Update File: a.go\n@@ func f() {\n a := 1\n-b := 2\n+b := 3\n c := 4\n*** Delete File: old.go\n*** End Patch\n"
	ch := ParsePatch(p)
	if len(ch) != 2 || ch[0].Kind != ChangeEdit || ch[1].Kind != ChangeDelete || ch[1].Path != "old.go" {
		t.Fatalf("%+v", ch)
	}
	f := FileState{Known: true, Content: "func f() {\na := 1\nb := 2\nc := 4\n}\n"}.Apply(ch[0])
	if !f.Known || f.Content != "func f() {\na := 1\nb := 3\nc := 4\n}\n" {
		t.Errorf("after the patch: %+v", f)
	}
	// An edit whose old text is not there leaves the content unknown.
	if g := f.Apply(FileChange{Kind: ChangeEdit, Edits: []TextEdit{{Old: "zzz", New: "y"}}}); g.Known {
		t.Errorf("an edit that cannot apply kept the content known: %+v", g)
	}
}
