package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/store"
)

// TestDemoHasItsOwnTrash: the demo says its changes are thrown away on
// exit, so a session deleted in it goes to a trash of its own, removed
// with the demo, never the user's.
func TestDemoHasItsOwnTrash(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	opts, cleanup, err := tuiOptions(nil, true, store.Env{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if opts.Trash == "" || strings.HasPrefix(opts.Trash, home) {
		cleanup()
		t.Fatalf("the demo's trash is %q", opts.Trash)
	}
	files, _ := store.Discover(opts.Roots)
	if len(files) == 0 {
		cleanup()
		t.Fatal("no demo session")
	}
	tr, err := store.Trash(files[0], store.Env{Home: home, Trash: opts.Trash})
	if err != nil || !strings.HasPrefix(tr.File, opts.Trash) {
		cleanup()
		t.Fatalf("deleted to %+v, %v", tr, err)
	}
	cleanup()
	for _, dir := range []string{opts.Trash, opts.Roots[0]} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s outlives the demo", dir)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "data", "Trash")); !os.IsNotExist(err) {
		t.Error("the user's trash was written to")
	}
}
