package dhara

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// appendIDs reads a tree's id lists as encoding/json does, whatever their
// spacing, escapes and lengths (its eight-byte steps at every offset).
func TestAppendIDsReadsAnyList(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"a", "Z", "0", "_", "-", "é", "\\\"", "\\\\", "\\n", "\\u00e9", "\\ud83d\\ude00", "]", ",", " "}
	seps := []string{", ", ",", " , ", ",\n      ", "\t,"}
	for range 5000 {
		var b strings.Builder
		b.WriteString("[")
		n := r.IntN(12)
		for k := range n {
			if k > 0 {
				b.WriteString(seps[r.IntN(len(seps))])
			}
			b.WriteByte('"')
			for range r.IntN(30) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			b.WriteByte('"')
		}
		b.WriteString(" ]")
		arr := b.String()
		var want []string
		if err := json.Unmarshal([]byte(arr), &want); err != nil {
			t.Fatalf("%s: %v", arr, err)
		}
		got, end := appendIDs(nil, []byte(arr), 0, true)
		if end != len(arr) || len(got) != len(want) {
			t.Fatalf("%s: %q (end %d of %d), want %q", arr, got, end, len(arr), want)
		}
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("%s: id %d is %q, want %q", arr, k, got[k], want[k])
			}
		}
	}
}
