package cline

import (
	"path/filepath"
	"testing"

	"skein/model"
)

// TestExtensionTask reads the VS Code extension's hand-made task: the id
// is the folder's, the call is paired with its result (a list of text
// blocks, joined), thinking is kept, Cline's own cost is kept, and
// ui_messages.json is a part of the task.
func TestExtensionTask(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "cline", "vscode", "tasks", "1733500000000")
	path := filepath.Join(dir, ExtensionFile)
	if !IsSessionFile(path) || partOf(filepath.Join(dir, "ui_messages.json")) != path {
		t.Fatal("not claimed, or ui_messages.json not its part")
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	info := s.Info(path, 0)
	if info.ID != "1733500000000" || info.Model != "claude-sonnet-4-5" || info.Created != 1733500000100 {
		t.Errorf("%+v", info)
	}
	ctx := s.BuildContext(s.Leaf())
	if len(ctx.Messages) != 4 {
		t.Fatalf("%d messages", len(ctx.Messages))
	}
	a := s.Message(ctx.Messages[1])
	if len(a.Blocks) != 3 || a.Blocks[0].Type != model.BlockThinking || a.Blocks[2].Call.Name != "list_files" {
		t.Errorf("%+v", a.Blocks)
	}
	r := s.Message(ctx.Messages[2])
	if r.Role != model.RoleToolResult || r.ToolCallID != "toolu_01" || r.ToolName != "list_files" || r.Text("") != "a.txt" {
		t.Errorf("%+v", r)
	}
	st := s.Stats()
	if st.TokensIn != 1200+200 || st.CacheRead != 1100 || st.CacheWrite != 1100 || st.Cost < 0.0062 || st.Cost > 0.0064 {
		t.Errorf("%+v", st.Totals)
	}
}
