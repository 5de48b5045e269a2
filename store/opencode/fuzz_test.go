package opencode

import (
	"bytes"
	"io"
	"testing"

	"skein/model"
)

// FuzzRows feeds damaged message and part data to the reader: none may
// panic, and what it writes is JSON. Each line of the input is a row's
// data: "m " a message, "p " a part of the last message.
func FuzzRows(f *testing.F) {
	f.Add([]byte("m {\"role\":\"user\"}\np {\"type\":\"text\",\"text\":\"hi\"}\nm {\"role\":\"assistant\",\"tokens\":{\"input\":1}}\np {\"type\":\"tool\",\"tool\":\"bash\",\"callID\":\"c\",\"state\":{\"status\":\"completed\",\"input\":{\"a\":1},\"output\":\"o\"}}"))
	f.Add([]byte("m {\"role\":\"assistant\",\"error\":{\"name\":\"E\",\"data\":{\"message\":\"x\"}}}\np {\"type\":\"tool\",\"state\":{\"status\":\"error\",\"input\":[1]}}\np {\"type\":\"reasoning\",\"text\":1}\np not json"))
	f.Add([]byte("p {}\nm null\nm {\"role\":\"user\"}\np {\"type\":\"file\",\"data\":\"x\"}"))
	f.Add([]byte("m {\"role\":\"user\",\"editorContext\":{\"activeFile\":\"a.go\",\"openTabs\":[\"b\",1],\"directory\":null}}\np {\"type\":\"text\",\"text\":\"hi\"}\nm {\"role\":\"user\",\"editorContext\":[]}\np {\"type\":\"text\",\"synthetic\":true,\"text\":\" <environment_details>\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := &DB{Sessions: []SessionRow{{ID: "s"}}, Messages: map[string][]Row{}, Parts: map[string][]Row{}}
		last := ""
		for k, line := range bytes.Split(data, []byte("\n")) {
			id := string(rune('a'+k%26)) + string(rune('a'+k/26%26))
			switch {
			case bytes.HasPrefix(line, []byte("m ")):
				last = "m" + id
				d.Messages["s"] = append(d.Messages["s"], Row{ID: last, Owner: "s", Data: line[2:]})
			case bytes.HasPrefix(line, []byte("p ")):
				d.Parts[last] = append(d.Parts[last], Row{ID: "p" + id, Owner: last, Data: line[2:]})
			}
		}
		s, ok := NewSession(d, "s")
		if !ok {
			t.Fatal("no session")
		}
		ms := model.NewSession(s, s.Info("/x/opencode.db#s"))
		for i := range s.Len() {
			_ = ms.Entry(i)
			_ = ms.EntryMessage(i)
			_ = ms.TreeText(i, "/home")
		}
		_ = s.Stats()
		for _, kilo := range []bool{false, true} { // Kilo's environment details too
			s.Kilo = kilo
			for _, leaf := range []int{s.Leaf(), s.Len() / 2, -1} {
				if err := s.WriteContextJSON(io.Discard, s.BuildContext(leaf)); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}
