package cli

import (
	"os"
	"strings"
	"testing"
)

func TestDeleteCommand(t *testing.T) {
	f := copyInto(t, fixture(t, webapp, "2026-03-03"))
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	out, _, code := skein(t, "session", "delete", f, "--json")
	if code != 0 || !strings.Contains(out, `"trashInfo"`) {
		t.Errorf("delete: %d %s", code, out)
	}
	if _, err := os.Stat(f); !os.IsNotExist(err) {
		t.Error("deleted file still there")
	}
}
