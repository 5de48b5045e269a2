package transcript

import (
	"strings"
	"testing"

	"skein/store"
)

// pi 1.6.0's entries in the message view: the system prompt on one line
// (whole when expanded), an edited message as the model saw it with the
// original one expand away, an omitted one dimmed, a compaction's checkpoint.
func TestPi16Entries(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/x"}`,
		`{"type":"message","id":"a0000001","parentId":null,"timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"system","content":"You are pi.\nBe brief.","sections":{"env":"cwd /x"},"toolsAdded":[{"name":"read","description":"r","parameters":{}},{"name":"bash","description":"b","parameters":{}}],"timestamp":1}}`,
		`{"type":"message","id":"a0000002","parentId":"a0000001","timestamp":"2026-11-20T10:00:01.000Z","message":{"role":"user","content":"secret token 123","timestamp":2}}`,
		`{"type":"message","id":"a0000003","parentId":"a0000002","timestamp":"2026-11-20T10:00:02.000Z","message":{"role":"user","content":"old wording","timestamp":3}}`,
		`{"type":"context_edit","id":"a0000004","parentId":"a0000003","timestamp":"2026-11-20T10:00:03.000Z","targetId":"a0000002","replacement":null}`,
		`{"type":"context_edit","id":"a0000005","parentId":"a0000004","timestamp":"2026-11-20T10:00:04.000Z","targetId":"a0000003","replacement":{"content":"new wording"}}`,
	}
	s, err := store.Parse([]byte(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := s.BuildContext(s.Leaf())
	items := Items(s, ctx, s.Leaf())
	render := func(expand bool) string {
		var out []string
		for _, it := range items {
			out = append(out, RenderItem(s, it, &Options{ExpandTools: expand}))
		}
		return strings.Join(out, "\n\n")
	}
	collapsed, expanded := render(false), render(true)
	for _, want := range []string{
		"▍system prompt · 2 lines · 1 section · +2 tools", "e expands",
		"▍user · omitted from context", "secret token 123",
		"edited", "new wording",
	} {
		if !strings.Contains(collapsed, want) {
			t.Errorf("collapsed view lacks %q:\n%s", want, collapsed)
		}
	}
	for _, bad := range []string{"Be brief.", "old wording"} {
		if strings.Contains(collapsed, bad) {
			t.Errorf("collapsed view shows %q:\n%s", bad, collapsed)
		}
	}
	for _, want := range []string{"Be brief.", "section env:", "cwd /x", "tools added: read, bash", "original, before the edit:", "old wording"} {
		if !strings.Contains(expanded, want) {
			t.Errorf("expanded view lacks %q:\n%s", want, expanded)
		}
	}
	// A compaction's checkpoint is shown as such.
	lines = append(lines, `{"type":"compaction","id":"a0000006","parentId":"a0000005","timestamp":"2026-11-20T10:00:05.000Z","summary":"## Goal\nx","firstKeptEntryId":"a0000003","tokensBefore":10,"systemMessage":{"role":"system","content":"You are pi.","timestamp":1}}`)
	s, _ = store.Parse([]byte(strings.Join(lines, "\n") + "\n"))
	ctx = s.BuildContext(s.Leaf())
	var out []string
	for _, it := range Items(s, ctx, s.Leaf()) {
		out = append(out, RenderItem(s, it, &Options{}))
	}
	if got := strings.Join(out, "\n"); !strings.Contains(got, "system prompt checkpoint") || !strings.Contains(got, "compaction:") {
		t.Errorf("compacted view:\n%s", got)
	}
}

// A tool's output loses its SGR colours; its other controls stay visible
// placeholders; the user's own text keeps even an SGR as a placeholder.
func TestToolOutputColours(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/x"}`,
		`{"type":"message","id":"a0000001","parentId":null,"timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"run \u001b[31mit\u001b[0m","timestamp":1}}`,
		`{"type":"message","id":"a0000002","parentId":"a0000001","timestamp":"2026-11-20T10:00:01.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"go test"}}],"timestamp":2}}`,
		`{"type":"message","id":"a0000003","parentId":"a0000002","timestamp":"2026-11-20T10:00:02.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"\u001b[1;32mok\u001b[0m  pkg\n\u001b[2Jcleared"}],"isError":false,"timestamp":3}}`,
		`{"type":"message","id":"a0000004","parentId":"a0000003","timestamp":"2026-11-20T10:00:03.000Z","message":{"role":"bashExecution","command":"ls","output":"\u001b[34mdir\u001b[0m\u0007","exitCode":0,"timestamp":4}}`,
	}
	s, err := store.Parse([]byte(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	out := Render(s, s.BuildContext(s.Leaf()), s.Leaf(), &Options{})
	for _, want := range []string{"ok  pkg", "␛[2Jcleared", "dir␇", "run ␛[31mit␛[0m"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") || strings.Contains(out, "␛[1;32m") || strings.Contains(out, "␛[34m") {
		t.Errorf("a tool's colour or a raw escape is left:\n%q", out)
	}
}

// Codex's injected AGENTS.md instructions and environment context show as
// context the agent added, folded, not as the user's messages.
func TestCodexContextIsNotTheUser(t *testing.T) {
	s, err := store.Open("../../testdata/unseen/codex/rollout-2026-05-04T10-11-12-019df2c4-7a31-7d52-9b0e-4c1f6a2e8d93.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ctx := s.BuildContext(s.Leaf())
	out := Render(s, ctx, s.Leaf(), &Options{Width: 100})
	users, contexts := 0, 0
	for _, block := range strings.Split(out, "▍")[1:] {
		switch {
		case strings.HasPrefix(block, "user") && (strings.Contains(block, "AGENTS.md instructions") || strings.Contains(block, "<environment_context>")):
			t.Errorf("an injected message shows as the user's:\n▍%s", block)
		case strings.HasPrefix(block, "user"):
			users++
		case strings.HasPrefix(block, "context"):
			contexts++
		}
	}
	if users == 0 || contexts == 0 {
		t.Errorf("%d user messages, %d context ones:\n%s", users, contexts, out)
	}
}
