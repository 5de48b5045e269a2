package dhara

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The context's entryIds are its entries' ids, whatever they hold: a
// plain one is written as it is, one with a quote, a backslash, a control
// character or a letter beyond ASCII escaped as JSON.stringify does.
func TestContextIDsEscaped(t *testing.T) {
	ids := []string{"plain_1", `q"uote`, `back\slash`, "tab\there", "é", "\u2028", "z"}
	var lines bytes.Buffer
	for _, id := range ids {
		q, _ := json.Marshal(id)
		lines.WriteString(`{"id":` + string(q) + `,"type":"message","timestamp":"2026-01-01T00:00:00.000Z","role":"user","content":[{"type":"text","text":"hi"}]}` + "\n")
	}
	s := Parse(Files{Entries: lines.Bytes()})
	var out bytes.Buffer
	if err := s.WriteContextJSON(&out, s.BuildContext(s.Leaf())); err != nil {
		t.Fatal(err)
	}
	var got struct{ EntryIDs []string }
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out.Bytes())
	}
	if len(got.EntryIDs) != len(ids) {
		t.Fatalf("entryIds %q, want %q", got.EntryIDs, ids)
	}
	for k := range ids {
		if got.EntryIDs[k] != ids[k] {
			t.Errorf("entryIds[%d] = %q, want %q", k, got.EntryIDs[k], ids[k])
		}
	}
}
