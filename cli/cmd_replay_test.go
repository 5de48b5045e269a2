package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
)

// The replay of a session with model and thinking changes, tool calls and a
// name, piped: plain text, entry by entry, with the session clock.
func TestReplayGolden(t *testing.T) {
	time.Local = time.UTC
	out, stderr, code := skein(t, "session", "replay", "--no-delay", fixture(t, webapp, "2026-03-02"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden.RequireEqual(t, out)
	// At another leaf: the path to it only.
	out, _, _ = skein(t, "session", "replay", "--no-delay", "--leaf", "a5f70014", fixture(t, webapp, "2026-03-03"))
	if strings.Count(out, "[0:") != 2 || !strings.Contains(out, "Both work.") {
		t.Errorf("replay to a5f70014:\n%s", out)
	}
}
