package cursor_test

import (
	"path/filepath"
	"testing"

	"skein/internal/formattest"
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
	root := filepath.Join(home, ".cursor", "projects")
	infos := formattest.Listed(t, store.Discover, store.List, store.Env{Home: home}.DefaultRoots(), root, 4)
	for _, in := range infos {
		if in.Format != cursor.Format || store.AgentOf(in) != "Cursor" {
			t.Errorf("%+v", in)
		}
		if _, err := store.Of(in).Open(in.Path); err != nil {
			t.Error(err)
		}
	}
}
