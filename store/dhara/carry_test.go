package dhara

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/internal/formattest"
)

// appendFails fails every append to entries.jsonl (a full disk just as the
// move carries another writer's line over).
type appendFails struct{ osFS }

func (a appendFails) OpenFile(name string, flag int, perm fs.FileMode) (writeFile, error) {
	if flag&os.O_APPEND != 0 && filepath.Base(name) == EntriesFile {
		return nil, errors.New("injected: no space left on device")
	}
	return a.osFS.OpenFile(name, flag, perm)
}

// A line another writer appended during the archive move, which cannot be
// carried over to the new entries.jsonl, is kept in a file of its own; the
// move says where, and doctor names it until it is dealt with.
func TestMoveKeepsALineItCannotCarry(t *testing.T) {
	dir := fixtureCopy(t, "compacted")
	saved := stillFor
	stillFor = 0
	defer func() { stillFor, beforeEntriesRename, fsys = saved, func() {}, osFS{} }()
	beforeEntriesRename = func() {
		f, err := os.OpenFile(filepath.Join(dir, EntriesFile), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(agentLine + "\n")
		f.Close()
		fsys = appendFails{}
	}
	n, err := Move(dir)
	if n == 0 || err == nil || !strings.Contains(err.Error(), CarriedPrefix) {
		t.Fatalf("moved %d: %v", n, err)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, CarriedPrefix+"*"))
	if len(kept) != 1 || !bytes.Contains(formattest.ReadFile(t, kept[0]), []byte(agentLine)) {
		t.Fatalf("the agent's line is kept in %v", kept)
	}
	diags, err := Check(dir)
	found := false
	for _, d := range diags {
		found = found || strings.HasPrefix(d.File, CarriedPrefix)
	}
	if err != nil || !found {
		t.Errorf("doctor does not name it: %v %v", diags, err)
	}
}
