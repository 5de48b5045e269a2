package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestForkCommand(t *testing.T) {
	f := copyInto(t, fixture(t, webapp, "2026-03-03"))
	out, stderr, code := skein(t, "session", "fork", f, "--at", "d20164ee", "--json")
	if code != 0 {
		t.Fatalf("fork: exit %d %s", code, stderr)
	}
	var fk struct{ Path, ParentSession, ID string }
	json.Unmarshal([]byte(out), &fk)
	abs, _ := filepath.Abs(f)
	if filepath.Dir(fk.Path) != filepath.Dir(f) || fk.ParentSession != abs || len(fk.ID) != 36 {
		t.Errorf("fork %+v", fk)
	}
	out, _, code = skein(t, "session", "fork", f, "--at", "d20164ee", "--before", "--json")
	if code != 0 || !strings.Contains(out, `"message":"Try Redis first."`) {
		t.Errorf("fork --before: %d %s", code, out)
	}
	if _, stderr, code := skein(t, "session", "fork", f, "--at", "a5f70014", "--before"); code != 1 || !strings.Contains(stderr, "needs a user message") {
		t.Errorf("--before on an assistant message: %d %s", code, stderr)
	}
}
