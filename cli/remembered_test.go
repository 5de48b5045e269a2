package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIDsFromAListedFolderResolve: `session list DIR` prints ids; `session
// show ID` must find that session afterwards though DIR is not one of the
// default folders (it said "no session" before). An id from nowhere is
// still not found.
func TestIDsFromAListedFolderResolve(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("PI_CODING_AGENT_DIR", "")
	t.Setenv("PI_CODING_AGENT_SESSION_DIR", "")
	dir := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "pi", "store"))); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, string, int) {
		var out, errb strings.Builder
		code := Run(args, strings.NewReader(""), &out, &errb)
		return out.String(), errb.String(), code
	}
	out, _, code := run("session", "list", "--json", dir)
	var list []struct{ ID, Path string }
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) == 0 {
		t.Fatalf("list: %d %q", code, out)
	}
	id := list[0].ID
	if _, errs, code := run("session", "show", id[:8]); code != 0 {
		t.Fatalf("show %s after listing its folder: %d %s", id[:8], code, errs)
	}
	if _, errs, code := run("session", "show", "ffffffff"); code != 1 || !strings.Contains(errs, "no session") {
		t.Errorf("an unknown id: %d %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(home, ".cache", "skein", "roots")); err != nil {
		t.Errorf("the folder is not remembered: %v", err)
	}
}
