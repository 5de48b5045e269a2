package dhara

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNewFolderNeverReplacesOne: a folder of the session's name made while
// an import wrote its staging folder (another import of the same session)
// must not be replaced. rename(2) replaces an empty folder; Go's os.Rename
// looks first (which leaves a moment open), RENAME_NOREPLACE closes it.
// The test fails with a rename that replaces (syscall.Rename).
func TestNewFolderNeverReplacesOne(t *testing.T) {
	root := t.TempDir()
	const id = "01a2b3c4-0000-7000-8000-000000000001"
	_, err := writeNewFolder(root, id, func(tmp string) error {
		if err := os.WriteFile(filepath.Join(tmp, "x"), []byte("x"), 0o600); err != nil {
			return err
		}
		// Another writer takes the name now, with an empty folder.
		return os.Mkdir(filepath.Join(root, id), 0o700)
	})
	if err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("the import replaced a folder made meanwhile (err %v)", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(root, id)); len(ents) != 0 {
		t.Errorf("the other folder was changed: %v", ents)
	}
	if left, _ := filepath.Glob(filepath.Join(root, ".import-*")); len(left) != 0 {
		t.Errorf("staging left behind: %v", left)
	}
}
