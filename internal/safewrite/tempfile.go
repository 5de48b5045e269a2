package safewrite

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"skein/internal/filelock"
	"skein/internal/randid"
)

// The temporary files skein's writers make (a new session, an export):
// named so that the next writer in the folder tells a dead writer's file
// from a live one's, and removes it.

// tempPrefix and tempSuffix frame a temporary name: .skein-PID-RANDOM.tmp.
// The pid lets the next writer tell a dead writer's file from a live one's.
const tempPrefix, tempSuffix = ".skein-", ".tmp"

// removeStaleTemps removes the temporary files in dir that a skein killed
// midway left behind: named .skein-PID-RANDOM.tmp, PID not a live process,
// and no writer holding the file's lock. A file a live skein is writing is
// never one of them; neither is anything else.
func removeStaleTemps(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, name := range names {
		pid, ok := tempPID(name)
		if !ok || pid == os.Getpid() || filelock.Alive(pid) {
			continue
		}
		removeIfUnlocked(filepath.Join(dir, name))
	}
}

// tempPID is the writer's pid in a temporary name writeNamed makes.
func tempPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return 0, false
	}
	rest, ok = strings.CutSuffix(rest, tempSuffix)
	if !ok {
		return 0, false
	}
	num, random, ok := strings.Cut(rest, "-")
	if !ok || random == "" || strings.Trim(random, "0123456789abcdef") != "" {
		return 0, false
	}
	pid, err := strconv.Atoi(num)
	if err != nil || pid <= 0 || strings.Trim(num, "0123456789") != "" {
		return 0, false
	}
	return pid, true
}

// removeIfUnlocked removes a regular file whose lock nobody holds, and only
// if its name still names the file that was checked.
func removeIfUnlocked(path string) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	// A writer holds the lock; a file system without locks leaves the
	// pid to decide.
	if filelock.TryLock(f) {
		return
	}
	if now, err := os.Lstat(path); err != nil || !os.SameFile(fi, now) {
		return
	}
	os.Remove(path)
}

// CreateTemp makes a temporary file in dir, for a new session
// (writeNamed) or another writer of skein's (an export), named
// .skein-PID-RANDOM.tmp and locked, so that RemoveStaleTemps removes it
// once its writer is gone. The caller removes or renames it.
func CreateTemp(dir string, perm os.FileMode) (*os.File, error) {
	tmp := filepath.Join(dir, tempPrefix+strconv.Itoa(os.Getpid())+"-"+randid.Hex(8)+tempSuffix)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return nil, err
	}
	// The lock says a live writer owns the file, whatever its pid means
	// to the process that looks (another pid namespace, another host).
	_ = filelock.TryLock(f)
	return f, nil
}

// RemoveStaleTemps removes the temporary files a skein killed midway left
// in dir (see removeStaleTemps).
func RemoveStaleTemps(dir string) { removeStaleTemps(dir) }
