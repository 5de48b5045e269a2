package model

import "testing"

// A diagnostic says where it is as doctor prints it: the file of a folder
// session, a line, or a JSON pointer in a .json file.
func TestDiagnosticWhere(t *testing.T) {
	for _, c := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{Msg: "m"}, "/s.jsonl"},
		{Diagnostic{Line: 3, Msg: "m"}, "/s.jsonl:3"},
		{Diagnostic{File: "entries.jsonl", Line: 7}, "/s.jsonl/entries.jsonl:7"},
		{Diagnostic{File: "meta.json", Pointer: "/title"}, "/s.jsonl/meta.json#/title"},
		{Diagnostic{File: "tree.json"}, "/s.jsonl/tree.json"},
	} {
		if got := c.d.Where("/s.jsonl"); got != c.want {
			t.Errorf("%+v: %s, want %s", c.d, got, c.want)
		}
	}
}
