package store

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skein/model"
	"skein/store/dhara"
)

// Every pi fixture in Dhara's model: a folder doctor finds nothing wrong
// in, whose context at the leaf has the pi context's messages, in order.
func TestPiToDhara(t *testing.T) {
	files, _ := Discover([]string{filepath.Join("..", "testdata", "pi", "store")})
	if len(files) < 5 {
		t.Fatalf("%d fixtures", len(files))
	}
	root := t.TempDir()
	for _, f := range files {
		s, err := Open(f)
		if err != nil {
			continue
		}
		b := dhara.FromSession(s, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), nil)
		dir, err := dhara.WriteNew(root, b)
		if err != nil {
			t.Fatal(err)
		}
		diags, err := dhara.Check(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range diags {
			if !d.Warning {
				t.Errorf("%s from %s: %s: %s", dir, filepath.Base(f), d.Where(dir), d.Msg)
			}
		}
		d, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		edits := false // pi's context edits have no home in Dhara's model: custom entries
		for i := range s.Len() {
			edits = edits || s.Entry(i).Kind == model.EntryContextEdit
		}
		if got, want := texts(d, d.BuildContext(d.Leaf())), texts(s, s.BuildContext(s.Leaf())); got != want && !edits {
			t.Errorf("%s: the context\n got %s\nwant %s", filepath.Base(f), got, want)
		}
	}
}

// texts are a context's messages as role: text lines, tool calls named.
func texts(s *model.Session, ctx model.Context) string {
	var b strings.Builder
	for _, m := range ctx.Messages {
		msg := s.Message(m)
		switch msg.Role {
		case model.RoleUser, model.RoleAssistant, model.RoleToolResult, model.RoleCompactionSummary:
		default:
			continue // pi's own kinds are custom entries in Dhara's model
		}
		b.WriteString(msg.Role + ": " + msg.Text(" ") + msg.Summary)
		for _, c := range msg.ToolCalls() {
			b.WriteString(" →" + c.Name)
		}
		b.WriteString("\n")
	}
	return b.String()
}
