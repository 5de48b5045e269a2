package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A ChatGPT export of three conversations whose second holds no messages
// (mapping null): the other two are imported, the second is named with
// the reason, on stderr and in --json, and the import exits 0; an export
// with nothing to import fails, naming what it skipped.
func TestImportSkipped(t *testing.T) {
	src := filepath.Join("..", "store", "chatgpt", "testdata", "mapping-null.json")
	const named = `skipped "Lisbon in three days" (6790e4f7-11aa-8002-b3c4-2d1e0f9a8b02): its mapping (the messages) is null: the export holds no messages of it`
	for _, to := range []string{"dhara", "pi"} {
		stdout, stderr, code := skein(t, "session", "import", "--file", src, "--to", to, "--out", t.TempDir())
		if code != 0 || strings.Count(stdout, "imported ") != 2 || !strings.Contains(stderr, named+"\n") {
			t.Errorf("--to %s: exit %d\n%s\n%s", to, code, stdout, stderr)
		}
		stdout, stderr, code = skein(t, "session", "import", "--file", src, "--to", to, "--out", t.TempDir(), "--json")
		var r struct {
			Sessions []struct{ Path, Title string }
			Skipped  []struct{ ID, Title, Reason string }
		}
		if code != 0 || json.Unmarshal([]byte(stdout), &r) != nil || len(r.Sessions) != 2 || !strings.Contains(stderr, named) {
			t.Fatalf("--to %s --json: exit %d\n%s\n%s", to, code, stdout, stderr)
		}
		if len(r.Skipped) != 1 || r.Skipped[0].ID != "6790e4f7-11aa-8002-b3c4-2d1e0f9a8b02" || r.Skipped[0].Title != "Lisbon in three days" ||
			!strings.Contains(r.Skipped[0].Reason, "mapping (the messages) is null") {
			t.Errorf("--to %s --json: skipped %+v", to, r.Skipped)
		}
	}
	only := filepath.Join(t.TempDir(), "conversations.json")
	if err := os.WriteFile(only, []byte(`[{"id":"c1","title":"Empty","mapping":null,"current_node":null}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := skein(t, "session", "import", "--file", only, "--format", "chatgpt", "--out", t.TempDir())
	if code != 1 || !strings.Contains(stderr, `skipped "Empty" (c1): its mapping`) || !strings.Contains(stderr, "no conversation with messages: 1 skipped") {
		t.Errorf("only a conversation without messages: exit %d\n%s", code, stderr)
	}
}
