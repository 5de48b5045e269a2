package cursor_test

import (
	"path/filepath"
	"testing"

	"skein/store"
	"skein/store/cursor"
	_ "skein/store/formats" // every format, as the list finds them
)

// TestListedAmongAllFormats: Cursor's folder is a default root; its
// sessions are listed as Cursor's (the sub-agent's transcript under its
// session, not on its own), with their project's folder when it exists.
func TestListedAmongAllFormats(t *testing.T) {
	t.Setenv("CURSOR_CONFIG_DIR", "")
	home, _ := filepath.Abs("../../testdata/cursor/cursor-home")
	roots := store.Env{Home: home}.DefaultRoots()
	root := filepath.Join(home, ".cursor", "projects")
	files, err := store.Discover([]string{root})
	if err != nil || len(roots) == 0 {
		t.Fatal(err)
	}
	infos, problems := store.List(files, nil)
	if len(infos) != 4 {
		t.Fatalf("%d listed: %+v %v", len(infos), infos, problems)
	}
	for _, in := range infos {
		if in.Format != cursor.Format || store.AgentOf(in) != "Cursor" {
			t.Errorf("%+v", in)
		}
		if _, err := store.Of(in).Open(in.Path); err != nil {
			t.Error(err)
		}
	}
}
