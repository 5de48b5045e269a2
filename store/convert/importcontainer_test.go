package convert

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"skein/store"
)

// TestImportAContainersSession: a session OpenCode keeps in its database
// ("<db>#<id>", no file of its own) imports into pi's store through its
// format's backend (it said "no such file" before), and the database's
// folder is as it was.
func TestImportAContainersSession(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "agentgen", "opencode", "fixtures", "plain", "opencode")
	db, _ := filepath.Abs(filepath.Join(dir, "opencode.db"))
	files, err := store.Discover([]string{db})
	if err != nil || len(files) == 0 {
		t.Fatalf("no session in %s: %v", db, err)
	}
	before, _ := os.ReadDir(dir)
	res, _, err := ImportFileSkipping(files[0], Options{To: "pi", Out: t.TempDir(), Now: time.Unix(1e9, 0)})
	if err != nil || len(res) != 1 {
		t.Fatalf("import %s: %v %+v", files[0], err, res)
	}
	if res[0].Format != "opencode" || !res[0].Guessed {
		t.Errorf("read as %q (guessed %v)", res[0].Format, res[0].Guessed)
	}
	if s, err := store.Open(res[0].Path); err != nil || s.Len() == 0 {
		t.Errorf("the import %s: %v", res[0].Path, err)
	}
	after, _ := os.ReadDir(dir)
	if len(after) != len(before) {
		t.Errorf("the database's folder changed: %v → %v", before, after)
	}
}
