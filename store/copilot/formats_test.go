package copilot_test

import (
	"path/filepath"
	"testing"

	"skein/store"
	"skein/store/copilot"
	_ "skein/store/formats" // every format, as the list finds them
)

// TestFoundAmongAllFormats: with every format registered, a Copilot
// session folder is Copilot's (Dhara's sessions are folders too), and a
// folder of neither is claimed by none.
func TestFoundAmongAllFormats(t *testing.T) {
	root := "../../testdata/agentgen/copilot/fixtures/plain/copilot-home/session-state"
	dirs, _ := filepath.Glob(filepath.Join(root, "*"))
	if len(dirs) != 1 {
		t.Fatalf("%v", dirs)
	}
	b, err := store.Find(dirs[0])
	if err != nil || b.Format() != copilot.Format {
		t.Fatalf("Find: %s %v", b.Format(), err)
	}
	infos, problems := store.List([]string{dirs[0]}, nil)
	if len(problems) > 0 || len(infos) != 1 || infos[0].Format != copilot.Format || store.AgentOf(infos[0]) != "Copilot CLI" {
		t.Fatalf("%+v %v", infos, problems)
	}
	empty := t.TempDir()
	for _, bk := range store.Backends() {
		if bk.Claims(empty) {
			t.Errorf("%s claims an empty folder", bk.Format())
		}
	}
}
