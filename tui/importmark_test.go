package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"skein/store"
	"skein/store/convert"
)

// A Dhara import made in an earlier run is still told from its original:
// its folder's meta.json says where it came from, and the list says so.
func TestImportMarkOutlivesTheRun(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"legacy.jsonl"} {
		if _, err := convert.ImportFile(filepath.Join("..", "testdata", "codex", f), convert.Options{To: "dhara", Out: filepath.Join(dir, "dhara"), Env: store.Env{Home: dir, WorkingDirPath: dir}}); err != nil {
			t.Fatal(err)
		}
	}
	m := loaded(t, 160, 30, true, filepath.Join(dir, "dhara"))
	if v := plain(m); !strings.Contains(v, "(import") {
		t.Errorf("the import is not marked:\n%s", v)
	}
}
