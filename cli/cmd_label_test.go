package cli

import (
	"strings"
	"testing"
)

func TestLabelCommand(t *testing.T) {
	f := copyInto(t, fixture(t, webapp, "2026-03-03"))
	if _, _, code := skein(t, "session", "label", f, "d20164ee", "redis path"); code != 0 {
		t.Error("label")
	}
	tree, _, _ := skein(t, "session", "tree", "--json", f)
	if !strings.Contains(tree, `"label":"redis path"`) {
		t.Error("label not in the tree")
	}
	if _, _, code := skein(t, "session", "label", f, "d20164ee"); code != 0 {
		t.Error("clearing the label")
	}
	if tree, _, _ := skein(t, "session", "tree", "--json", f); strings.Contains(tree, `"label":"redis path"`) {
		t.Error("the label was not cleared")
	}
}
