package model

import (
	"bytes"
	"strings"
	"testing"
)

const planted = "sk-ant-api03-Qz7xT2mPvR9kLw4nJc8bYs1dHf6gUe3aXo5iNq0tBz-Vy_KpMr2AA"

// rich is a source with text of its own in every place: a message's
// blocks, its literal, its head, labels, its name, details, tree text,
// records and JSON.
type rich struct{ core }

func (r rich) Message(m ContextMessage) Message {
	return Message{Role: RoleAssistant, Error: "e " + planted, Output: planted, Summary: planted, Command: planted,
		Sections: []Section{{Name: "s", Text: planted}},
		Blocks: []Block{{Type: BlockText, Text: "key " + planted}, {Type: BlockThinking, Text: planted},
			{Type: BlockToolCall, Call: ToolCall{ID: "c", Name: "bash", Input: []byte(`{"command":"echo ` + planted + `"}`)}}}}
}
func (r rich) MessageLiteral(m ContextMessage) Message {
	return Message{Blocks: []Block{{Type: BlockText, TextJSON: []byte(`"a\n` + planted + `\""`)}}}
}
func (r rich) MessageHead(m ContextMessage) Message { return Message{Error: planted} }
func (r rich) Raw(i int) []byte                     { return []byte(`{"k":"` + planted + `"}`) }
func (r rich) Label(i int) (string, bool)           { return planted, true }
func (r rich) Name() string                         { return "n " + planted }
func (r rich) Detail(i int) Detail                  { return Detail{Label: planted, Title: planted} }
func (r rich) TreeText(i int, home string) []Part   { return []Part{{Text: planted}} }

// Everything a filtered session gives out went through its filter; the
// session it was made from still gives the source's text.
func TestWithTextFiltersEveryPlace(t *testing.T) {
	s := NewSession(rich{core{[]int{-1, 0}}}, SessionInfo{Cwd: "/home/" + planted, Name: planted, FirstMessage: planted, Path: "/x/" + planted})
	f, r := s.Redacted()
	var out strings.Builder
	add := func(v any) {
		switch x := v.(type) {
		case Message:
			out.WriteString(x.SearchText())
			for _, b := range x.Blocks {
				out.Write(b.TextJSON)
			}
			out.WriteString(x.Error + x.Output + x.Summary + x.Command)
		case string:
			out.WriteString(x)
		case []byte:
			out.Write(x)
		}
	}
	cm := ContextMessage{Entry: 1}
	add(f.Message(cm))
	add(f.EntryMessage(1))
	add(f.MessageLiteral(cm))
	add(f.MessageHead(cm))
	add(f.Raw(1))
	l, _ := f.Label(1)
	add(l)
	add(f.Name())
	d := f.Detail(1)
	add(d.Label + d.Title)
	for _, p := range f.TreeText(1, "") {
		add(p.Text)
	}
	add(f.Info.Cwd + f.Info.Name + f.Info.FirstMessage + f.Info.Path)
	var b bytes.Buffer
	if err := f.WriteContextJSON(&b, f.BuildContext(1)); err != nil {
		t.Fatal(err)
	}
	add(b.Bytes())
	if strings.Contains(out.String(), planted[:20]) {
		t.Errorf("the secret came out: %s", out.String())
	}
	if !strings.Contains(out.String(), "[REDACTED:anthropic-key]") || r.Total() < 10 {
		t.Errorf("%d redacted: %s", r.Total(), out.String())
	}
	if m := s.Message(cm); !strings.Contains(m.Blocks[0].Text, planted) {
		t.Error("the session filtered was changed")
	}
	if SourceOf[rich](f).parent != nil || SourceOf[rich](s).parent == nil {
		t.Error("SourceOf shows a filtered session's source, or hides an unfiltered one's")
	}
}
