package cli

import (
	"os"
	"strings"
	"testing"

	"skein/store"
)

// TestPlanCommand: --json is the plan model computes (which the cross-check
// holds to pi's), the text says what would be summarized and kept, and a
// budget that keeps everything says there is nothing to compact.
func TestPlanCommand(t *testing.T) {
	f := fixture(t, webapp, "2026-03-02")
	data, _ := os.ReadFile(f)
	s, err := store.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := skein(t, "session", "plan", "--json", "--keep-tokens", "10", f)
	if want := string(s.PlanCompaction(s.Leaf(), 10).JSON()) + "\n"; code != 0 || out != want {
		t.Errorf("plan --json: exit %d %s\n got %s\nwant %s", code, stderr, out, want)
	}
	out, _, code = skein(t, "session", "plan", "--keep-tokens", "10", f)
	if code != 0 || !strings.Contains(out, "summarize") {
		t.Errorf("plan: exit %d\n%s", code, out)
	}
	out, _, code = skein(t, "session", "plan", f)
	if code != 0 || !strings.Contains(out, "Nothing to compact") {
		t.Errorf("plan with the default budget: exit %d\n%s", code, out)
	}
}
