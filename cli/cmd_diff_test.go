package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// branchedPi writes a pi session by hand: a shared start that writes
// main.go, then a branch that edits it for Redis (r...) and one that edits
// it for SQLite and writes notes.md (s...), the last entry's.
func branchedPi(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "--home-dev-cache--")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	n := 0
	entry := func(id, parent, msg string) string {
		n++
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		ts := "2026-03-02T09:00:" + string(rune('0'+n/10)) + string(rune('0'+n%10)) + ".000Z"
		return `{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"` + ts + `","message":` + msg + `}`
	}
	usage := `,"usage":{"input":100,"output":10,"cacheRead":0,"cacheWrite":0,"totalTokens":110,"cost":{"input":0.1,"output":0.1,"cacheRead":0,"cacheWrite":0,"total":0.2}}`
	asst := func(content string) string {
		return `{"role":"assistant","content":` + content + `,"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5"` + usage + `,"stopReason":"toolUse","timestamp":1772442001000}`
	}
	callMsg := func(id, name, args string) string {
		return asst(`[{"type":"toolCall","id":"` + id + `","name":"` + name + `","arguments":` + args + `}]`)
	}
	res := func(id string) string {
		return `{"role":"toolResult","toolCallId":"` + id + `","toolName":"x","content":[{"type":"text","text":"ok"}],"isError":false,"timestamp":1772442002000}`
	}
	userMsg := func(text string) string {
		return `{"role":"user","content":"` + text + `","timestamp":1772442000000}`
	}
	lines := []string{
		`{"type":"session","version":3,"id":"019cadc6-0000-7000-8000-000000000001","timestamp":"2026-03-02T09:00:00.000Z","cwd":"/home/dev/cache"}`,
		entry("u0000001", "", userMsg("Write main.go")),
		entry("a0000001", "u0000001", callMsg("w1", "write", `{"path":"main.go","content":"package main\n\nfunc main() {\n\tcache := open()\n\t_ = cache\n}\n"}`)),
		entry("t0000001", "a0000001", res("w1")),
		entry("r0000001", "t0000001", userMsg("Try Redis first.")),
		entry("r0000002", "r0000001", callMsg("e1", "edit", `{"path":"main.go","oldText":"open()","newText":"redis.Dial()"}`)),
		entry("r0000003", "r0000002", res("e1")),
		entry("s0000001", "t0000001", userMsg("Let's go with SQLite instead.")),
		entry("s0000002", "s0000001", callMsg("e2", "edit", `{"path":"main.go","oldText":"open()","newText":"sql.Open(\"sqlite\")"}`)),
		entry("s0000003", "s0000002", res("e2")),
		entry("s0000004", "s0000003", callMsg("w2", "write", `{"path":"notes.md","content":"sqlite\n"}`)),
		entry("s0000005", "s0000004", res("w2")),
	}
	path := filepath.Join(dir, "2026-03-02T09-00-00-000Z_019cadc6-0000-7000-8000-000000000001.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDiffTwoBranchesText(t *testing.T) {
	f := branchedPi(t)
	out, stderr, code := skein(t, "session", "diff", f+"@r0000003", f)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"shared: 3 entries (3 messages), diverging after t0000001 toolResult: ok",
		"── left only: 3 messages, 1 tool call",
		"  r0000001  user: Try Redis first.",
		"── right only: 5 messages, 2 tool calls",
		"  s0000004  assistant: write notes.md",
		"── files: 2 changed after the shared part",
		"/home/dev/cache/main.go",
		"--- left/home/dev/cache/main.go",
		"  -    cache := redis.Dial()",
		"  +    cache := sql.Open(\"sqlite\")",
		"/home/dev/cache/notes.md\n  left:  not changed\n  right: 1 line, 7 bytes (1 call)",
		"tool calls              1              2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "u0000001  user") {
		t.Errorf("a shared message is listed as one side's:\n%s", out)
	}
}

func TestDiffTwoBranchesJSON(t *testing.T) {
	f := branchedPi(t)
	// An entry by a unique prefix of its id.
	out, stderr, code := skein(t, "session", "diff", "--json", f+"@r0000003", f+"@s00000")
	if code == 0 {
		t.Fatalf("an ambiguous prefix was taken: %s", out)
	}
	if !strings.Contains(stderr, "more than one entry") {
		t.Errorf("stderr: %s", stderr)
	}
	out, stderr, code = skein(t, "session", "diff", "--json", f+"@r0000003", f+"@s0000005")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d diffOut
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if !d.Common.SameSession || d.Common.Entries != 3 || *d.Common.LastCommon.Left != "t0000001" || *d.Common.LastCommon.Right != "t0000001" {
		t.Errorf("common: %+v", d.Common)
	}
	if len(d.Left.Messages) != 3 || d.Left.Messages[0].Text != "Try Redis first." || len(d.Right.Messages) != 5 {
		t.Errorf("messages: %+v / %+v", d.Left.Messages, d.Right.Messages)
	}
	if d.Left.Totals.Input != 100 || d.Right.Totals.Input != 200 || *d.Right.Totals.Cost != 0.4 || d.Left.All.Input != 200 {
		t.Errorf("totals: %+v / %+v", d.Left.Totals, d.Right.Totals)
	}
	if len(d.Files) != 2 || d.Files[0].Diff == nil || !strings.Contains(*d.Files[0].Diff, "+\tcache := sql.Open(\"sqlite\")") {
		t.Fatalf("files: %+v", d.Files)
	}
	if d.Files[0].Left.State != "known" || !strings.Contains(*d.Files[0].Left.Content, "redis.Dial()") {
		t.Errorf("main.go on the left: %+v", d.Files[0].Left)
	}
	if d.Files[1].Left != nil || d.Files[1].Right == nil || *d.Files[1].Right.Content != "sqlite\n" || d.Files[1].Diff != nil {
		t.Errorf("notes.md: %+v", d.Files[1])
	}
}

func TestDiffUsage(t *testing.T) {
	f := branchedPi(t)
	if _, _, code := skein(t, "session", "diff", f); code != 2 {
		t.Errorf("one session: exit %d, want 2", code)
	}
	if _, stderr, code := skein(t, "session", "diff", f, f+"@nope"); code != 1 || !strings.Contains(stderr, `no entry "nope"`) {
		t.Errorf("an unknown entry: exit %d, %s", code, stderr)
	}
	// A session of no entries has no leaf: nothing to compare, and no
	// entry read at -1.
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, []byte(`{"type":"session","version":3,"id":"e","timestamp":"2026-03-02T09:00:00.000Z","cwd":"/p"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := skein(t, "session", "diff", "--json", empty, f)
	if code != 0 || !strings.Contains(out, `"leaf":""`) {
		t.Errorf("an empty session: exit %d, %s %s", code, out, stderr)
	}
}

// TestDiffClaudeRewind compares the two branches of a Claude Code
// session's rewind: two prompts answer a2.
func TestDiffClaudeRewind(t *testing.T) {
	f := "../testdata/claude/rewind-compact.jsonl"
	out, stderr, code := skein(t, "session", "diff", "--json", f+"@a3", f)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d diffOut
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if *d.Common.LastCommon.Left != "a2" || d.Left.Leaf != "a3" || d.Right.Leaf != "a6" {
		t.Errorf("common %+v, leaves %s %s", d.Common, d.Left.Leaf, d.Right.Leaf)
	}
	if len(d.Left.Messages) != 2 || d.Left.Messages[0].ID != "u2" || d.Left.Messages[0].Text != "Now add a test." {
		t.Errorf("left's messages: %+v", d.Left.Messages)
	}
	if len(d.Right.Messages) == 0 || d.Right.Messages[0].ID != "u3" || d.Right.Messages[len(d.Right.Messages)-1].ID != "a6" {
		t.Errorf("right's messages: %+v", d.Right.Messages)
	}
	if len(d.Right.Calls) != 2 || !d.Right.Calls[0].Failed || d.Right.Calls[0].Argument != "go test ./..." {
		t.Errorf("right's calls: %+v", d.Right.Calls)
	}
	text, _, _ := skein(t, "session", "diff", f+"@a3", f)
	for _, want := range []string{"diverging after a2 assistant: main.go starts the TUI through run().", "  u2  user: Now add a test.", "  u3  user: Add a table test instead."} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
}

// importDhara imports f into a Dhara folder under a temporary folder and
// returns the session's folder.
func importDhara(t *testing.T, f string) string {
	t.Helper()
	out, stderr, code := skein(t, "session", "import", "--file", f, "--to", "dhara", "--out", t.TempDir(), "--json")
	if code != 0 {
		t.Fatalf("import %s: exit %d: %s", f, code, stderr)
	}
	var r struct{ Path string }
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Path == "" {
		t.Fatalf("import %s: %v %q", f, err, out)
	}
	return r.Path
}

// TestDiffASessionAndItsImport: a session and its import into Dhara say
// the same, on every branch, whatever each format cuts into entries.
func TestDiffASessionAndItsImport(t *testing.T) {
	pi := branchedPi(t)
	cases := []struct{ file, leaf string }{
		{pi, "s0000005"}, {pi, "r0000003"},
		{"../testdata/claude/rewind-compact.jsonl", "a6"}, {"../testdata/claude/rewind-compact.jsonl", "a3"},
	}
	for _, c := range cases {
		dir := importDhara(t, c.file)
		out, stderr, code := skein(t, "session", "diff", "--json", c.file+"@"+c.leaf, dir+"@"+c.leaf)
		if code != 0 {
			t.Fatalf("%s@%s: exit %d: %s", c.file, c.leaf, code, stderr)
		}
		var d diffOut
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Left.Messages) != 0 || len(d.Right.Messages) != 0 || len(d.Files) != 0 || d.Common.Messages == 0 {
			t.Errorf("%s@%s against its import: %d shared, %+v / %+v, files %+v", c.file, c.leaf, d.Common.Messages, d.Left.Messages, d.Right.Messages, d.Files)
		}
		text, _, _ := skein(t, "session", "diff", c.file+"@"+c.leaf, dir+"@"+c.leaf)
		if !strings.Contains(text, "no difference in messages") {
			t.Errorf("%s@%s: the text says a difference:\n%s", c.file, c.leaf, text)
		}
	}
	// And the import of one branch against the session's other branch
	// does differ, after the shared start.
	dir := importDhara(t, pi)
	out, _, _ := skein(t, "session", "diff", "--json", pi+"@r0000003", dir+"@s0000005")
	var d diffOut
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Common.SameSession || *d.Common.LastCommon.Left != "t0000001" || len(d.Left.Messages) != 3 || len(d.Files) != 2 || d.Files[0].Diff == nil {
		t.Errorf("the other branch against the import: %+v, %d left, files %+v", d.Common, len(d.Left.Messages), d.Files)
	}
}

// TestDiffAPiForkAndItsSource: a fork at the Redis branch's tip holds
// that branch: against it, no difference; against the SQLite branch, the
// same divergence as in the source, with the files' diff.
func TestDiffAPiForkAndItsSource(t *testing.T) {
	src := branchedPi(t)
	out, stderr, code := skein(t, "session", "fork", src, "--at", "r0000003", "--json")
	if code != 0 {
		t.Fatalf("fork: exit %d: %s", code, stderr)
	}
	var f struct{ Path string }
	if err := json.Unmarshal([]byte(out), &f); err != nil || f.Path == "" {
		t.Fatalf("fork: %v %q", err, out)
	}
	text, _, _ := skein(t, "session", "diff", src+"@r0000003", f.Path)
	if !strings.Contains(text, "shared: 6 messages, up to r0000003 / ") || !strings.Contains(text, "no difference in messages") {
		t.Errorf("the fork against its branch:\n%s", text)
	}
	out, _, _ = skein(t, "session", "diff", "--json", f.Path, src)
	var d diffOut
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Common.SameSession || d.Common.Entries != 3 || len(d.Left.Messages) != 3 || len(d.Right.Messages) != 5 ||
		len(d.Files) != 2 || d.Files[0].Diff == nil || !strings.Contains(*d.Files[0].Diff, "-\tcache := redis.Dial()") {
		t.Errorf("the fork against the source's leaf: %+v, %d/%d messages, files %+v", d.Common, len(d.Left.Messages), len(d.Right.Messages), d.Files)
	}
}

// TestDiffTwoAgentsOnOneProject compares a Claude Code session that wrote
// three files with a pi session, written here, given the same prompt in
// the same folder, that wrote one of them otherwise: they share the
// prompt, and the file both wrote has a diff.
func TestDiffTwoAgentsOnOneProject(t *testing.T) {
	claude := "../testdata/agentgen/claude/fixtures/parallel/home/.claude/projects/-sandbox-project/aa1567a7-afc0-4fcb-baef-24a62602d21b.jsonl"
	dir := filepath.Join(t.TempDir(), "--sandbox-project--")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ts := `"timestamp":"2026-03-02T09:00:00.000Z"`
	lines := []string{
		`{"type":"session","version":3,"id":"019cadc6-0000-7000-8000-000000000002",` + ts + `,"cwd":"/sandbox/project"}`,
		`{"type":"message","id":"p1","parentId":null,` + ts + `,"message":{"role":"user","content":"Write alpha, beta and gamma into a.txt, b.txt and c.txt.","timestamp":1772442000000}}`,
		`{"type":"message","id":"p2","parentId":"p1",` + ts + `,"message":{"role":"assistant","content":[{"type":"toolCall","id":"w","name":"write","arguments":{"path":"a.txt","content":"ALPHA\n"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","stopReason":"toolUse","timestamp":1772442001000}}`,
		`{"type":"message","id":"p3","parentId":"p2",` + ts + `,"message":{"role":"toolResult","toolCallId":"w","toolName":"write","content":[{"type":"text","text":"ok"}],"isError":false,"timestamp":1772442002000}}`,
	}
	pi := filepath.Join(dir, "2026-03-02T09-00-00-000Z_019cadc6-0000-7000-8000-000000000002.jsonl")
	if err := os.WriteFile(pi, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := skein(t, "session", "diff", "--json", claude, pi)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d diffOut
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Common.SameSession || d.Common.Entries != 1 || d.Left.Format != "claude" || d.Right.Format != "pi" || *d.Common.LastCommon.Right != "p1" {
		t.Errorf("common %+v, formats %s %s", d.Common, d.Left.Format, d.Right.Format)
	}
	if len(d.Files) != 3 || d.Files[0].Path != "/sandbox/project/a.txt" || d.Files[0].Diff == nil ||
		!strings.Contains(*d.Files[0].Diff, "-alpha\n+ALPHA\n") || d.Files[1].Right != nil || d.Files[1].Left.State != "known" {
		t.Errorf("files: %+v", d.Files)
	}
}
