package formattest

import (
	"errors"
	"slices"
	"strconv"
	"testing"
)

// FuzzParse sniffs every input, and hands check what parse reads but
// never what it refuses: its seeds run as a test.
func FuzzFuzzParse(f *testing.F) {
	f.Add([]byte("refused"))
	f.Add([]byte("read"))
	parse := func(data []byte) (string, error) {
		if string(data) == "refused" {
			return "", errors.New("not a session")
		}
		return string(data), nil
	}
	var sniffed []string
	FuzzParse(f, func(head []byte) bool { sniffed = append(sniffed, string(head)); return false }, parse, func(t *testing.T, s string) {
		if s == "refused" || !slices.Contains(sniffed, s) {
			t.Fatalf("checked %q, sniffed %q", s, sniffed)
		}
	})
}

// tree is a tree view whose lines name the selected row and the home.
type tree struct{ leaf int }

func (v tree) NearestVisible(n int) int { return n - 1 }
func (v tree) Lines(selected int, home string) []string {
	return []string{strconv.Itoa(v.leaf), strconv.Itoa(selected), home}
}

type treed struct{ filter *string }

func (d treed) NewTreeView(leaf int, filter string) tree { *d.filter = filter; return tree{leaf} }

// TreeLines draws the view at the leaf through the filter, with the row
// nearest the leaf selected.
func TestTreeLines(t *testing.T) {
	var filter string
	if got := TreeLines(treed{&filter}, 5, "all", "/home"); !slices.Equal(got, []string{"5", "4", "/home"}) || filter != "all" {
		t.Errorf("lines %q, filter %q", got, filter)
	}
}
