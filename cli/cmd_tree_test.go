package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTreeTextAndJSON(t *testing.T) {
	f := fixture(t, webapp, "2026-03-03")
	out, _, _ := skein(t, "session", "tree", f)
	if !strings.Contains(out, "› ") || !strings.Contains(out, "├⊟ user: Try Redis first.") || !strings.Contains(out, "(3/13)") {
		t.Errorf("tree text:\n%s", out)
	}
	out, _, _ = skein(t, "session", "tree", "--json", f)
	var roots []map[string]any
	if err := json.Unmarshal([]byte(out), &roots); err != nil || len(roots) != 2 {
		t.Errorf("tree json: %v, %d roots", err, len(roots))
	}
}
