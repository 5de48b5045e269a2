package par

import (
	"fmt"
	"slices"
	"testing"
)

// TestPartLines: blank lines are skipped, blanks trimmed, lines numbered
// from the part's first, and only the file's last line is Last.
func TestPartLines(t *testing.T) {
	data := []byte("{\"a\":1}\r\n \t\n  {\"b\":2} \n{\"c\"")
	var got []string
	for l := range (Part{Data: data, Line: 5, Last: true}).Lines() {
		got = append(got, fmt.Sprintf("%d %s %v", l.No, l.Text, l.Last))
	}
	want := []string{`5 {"a":1} false`, `7 {"b":2} false`, `8 {"c" true`}
	if !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
	for l := range (Part{Data: []byte("x\ny\n"), Line: 1}).Lines() {
		if l.Last {
			t.Errorf("line %d of a part that does not end its file is Last", l.No)
		}
	}
}
