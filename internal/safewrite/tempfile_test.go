package safewrite

import (
	"os"
	"os/exec"
	"path/filepath"
	"skein/internal/formattest"
	"slices"
	"strconv"
	"syscall"
	"testing"
)

// Only a dead writer's temporary file goes: not one whose pid is alive, not
// one whose lock is held (a writer in another pid namespace), not a file
// that skein did not name so.
func TestRemoveStaleTemps(t *testing.T) {
	dir := t.TempDir()
	done := exec.Command("true")
	if err := done.Run(); err != nil {
		t.Skip(err)
	}
	dead := done.Process.Pid
	file := func(pid int, random string) string {
		return tempPrefix + strconv.Itoa(pid) + "-" + random + tempSuffix
	}
	gone := file(dead, "0a1b")
	kept := []string{
		file(os.Getpid(), "00ff"),  // this process
		file(os.Getppid(), "00ff"), // a live one
		file(dead, "1111"),         // dead pid, but locked
		file(dead, "XYZ"),          // not skein's pattern
		".skein-123456789.tmp",     // an older skein's name: its writer is unknown
		"a.jsonl",
	}
	for _, n := range append([]string{gone}, kept...) {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o600)
	}
	os.Symlink(filepath.Join(dir, "a.jsonl"), filepath.Join(dir, file(dead, "2222")))
	kept = append(kept, file(dead, "2222")) // a symlink
	locked, _ := os.Open(filepath.Join(dir, file(dead, "1111")))
	defer locked.Close()
	if err := syscall.Flock(int(locked.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	RemoveStaleTemps(dir)
	got := formattest.Names(t, dir, "")
	slices.Sort(kept)
	if !slices.Equal(got, kept) {
		t.Errorf("left %v, want %v", got, kept)
	}
}
