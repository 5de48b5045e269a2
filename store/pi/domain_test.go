package pi

import (
	"strings"
	"testing"

	"skein/model"
)

// pi's messages as the domain's: every block shape normalized, every field
// the screens read, and the values pi writes oddly.
func TestMessagesInTheDomain(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/x"}`,
		`{"type":"model_change","id":"m0000001","parentId":null,"timestamp":"2026-11-20T10:00:00.000Z","provider":"anthropic","modelId":"claude"}`,
		`{"type":"message","id":"a0000001","parentId":"m0000001","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"hello","timestamp":1e400}}`,
		`{"type":"message","id":"a0000002","parentId":"a0000001","timestamp":"2026-11-20T10:00:01.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"hi"},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a.go"}},{"type":"tool_use","toolCallId":"c2","toolName":"bash","input":{"command":"ls"}},{"type":"image","mimeType":"image/png","data":"aGVsbG8="},{"type":"widget"}],"model":"claude","provider":"anthropic","usage":null,"stopReason":"toolUse","timestamp":2}}`,
		`{"type":"message","id":"a0000003","parentId":"a0000002","timestamp":"2026-11-20T10:00:02.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"package a"}],"isError":true,"timestamp":3}}`,
		`{"type":"message","id":"a0000004","parentId":"a0000003","timestamp":"2026-11-20T10:00:03.000Z","message":{"role":"bashExecution","command":"ls","output":"a.go","exitCode":null,"cancelled":false,"excludeFromContext":true,"timestamp":4}}`,
		`{"type":"message","id":"a0000005","parentId":"a0000004","timestamp":"2026-11-20T10:00:04.000Z","message":{"role":"bashExecution","command":"false","output":"","exitCode":1,"timestamp":5}}`,
		`{"type":"label","id":"l0000001","parentId":"a0000005","timestamp":"2026-11-20T10:00:05.000Z","targetId":"a0000002","label":"here"}`,
		`{"type":"session_info","id":"n0000001","parentId":"l0000001","timestamp":"2026-11-20T10:00:06.000Z","name":"  named  "}`,
		`{"type":"custom_message","id":"x0000001","parentId":"n0000001","timestamp":"2026-11-20T10:00:07.000Z","customType":"note","content":[{"type":"text","text":"fyi"}],"display":false}`,
		`{"type":"something_new","id":"z0000001","parentId":"x0000001","timestamp":"2026-11-20T10:00:08.000Z"}`,
	}
	ps, err := Parse([]byte(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := ps.Domain(model.SessionInfo{})
	if s.Info.ID != "s1" || s.Info.Cwd != "/x" || s.Name() != "named" {
		t.Errorf("info %+v, name %q", s.Info, s.Name())
	}
	kinds := []model.EntryKind{model.EntryModelChange, model.EntryMessage, model.EntryMessage, model.EntryMessage, model.EntryMessage,
		model.EntryMessage, model.EntryLabel, model.EntryTitle, model.EntryCustomMessage, model.EntryOther}
	for i, k := range kinds {
		if e := s.Entry(i); e.Kind != k || e.Line != i+2 {
			t.Errorf("entry %d: kind %v line %d, want %v", i, e.Kind, e.Line, k)
		}
	}
	if e := s.Entry(9); e.Type != "something_new" {
		t.Errorf("an unknown kind keeps its name: %q", e.Type)
	}
	if d := s.Detail(0); d.Provider != "anthropic" || d.Model != "claude" {
		t.Errorf("model change %+v", d)
	}
	if d := s.Detail(6); d.Target != "a0000002" || d.Label != "here" {
		t.Errorf("label %+v", d)
	}
	user := s.EntryMessage(1)
	if user.HasTime || user.Text("") != "hello" || len(user.Blocks) != 1 || user.Blocks[0].Type != model.BlockText {
		t.Errorf("user %+v: an infinite time is none; a string content is a text block", user)
	}
	a := s.EntryMessage(2)
	types := []model.BlockType{model.BlockThinking, model.BlockText, model.BlockToolCall, model.BlockToolCall, model.BlockImage, model.BlockOther}
	if len(a.Blocks) != len(types) {
		t.Fatalf("assistant blocks %+v", a.Blocks)
	}
	for i, bt := range types {
		if a.Blocks[i].Type != bt {
			t.Errorf("block %d: %v, want %v", i, a.Blocks[i].Type, bt)
		}
	}
	if c := a.Blocks[2].Call; c.ID != "c1" || c.Name != "read" || string(c.Input) != `{"path":"a.go"}` {
		t.Errorf("toolCall %+v", c)
	}
	if c := a.Blocks[3].Call; c.ID != "c2" || c.Name != "bash" || string(c.Input) != `{"command":"ls"}` {
		t.Errorf("tool_use %+v", c)
	}
	if b := a.Blocks[4]; b.MimeType != "image/png" || b.DataLen != 8 || a.Blocks[5].Name != "widget" {
		t.Errorf("image %+v, other %+v", b, a.Blocks[5])
	}
	if a.Model != "claude" || a.Provider != "anthropic" || a.StopReason != "toolUse" || a.Usage == nil || *a.Usage != (model.Usage{}) {
		t.Errorf("assistant %+v (a null usage is zeros)", a)
	}
	r := s.EntryMessage(3)
	if r.ToolCallID != "c1" || r.ToolName != "read" || !r.IsError || r.Text("") != "package a" || !r.HasTime || r.Time != 3 {
		t.Errorf("result %+v", r)
	}
	if b := s.EntryMessage(4); b.Command != "ls" || b.Output != "a.go" || b.ExitCode != "" || !b.Excluded || b.Cancelled {
		t.Errorf("bash %+v", b)
	}
	if b := s.EntryMessage(5); b.ExitCode != "1" {
		t.Errorf("exit code %q", b.ExitCode)
	}
	if c := s.EntryMessage(8); c.Role != model.RoleCustom || c.CustomType != "note" || !c.Hidden || c.Text("") != "fyi" {
		t.Errorf("custom message %+v", c)
	}
	msgs := []model.Message{a, r}
	if p := model.PairTools(msgs); len(p) != 1 || p["c1"] != 1 {
		t.Errorf("pairs %v", p)
	}
}
