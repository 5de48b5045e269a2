package pi

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// testHookBeforeLink runs once a new file's bytes are written and synced,
// before the file gets its name; tests stop a writer there.
var testHookBeforeLink func(tmp string)

// failStep, set by tests, fails a step of making a new file: "link" before
// the file gets its name, "syncdir" once it has it.
var failStep func(step string) error

func step(name string) error {
	if failStep == nil {
		return nil
	}
	return failStep(name)
}

// writeNew writes a file that must not exist yet, with mode perm whatever
// the umask, so that a writer killed midway leaves nothing behind for good:
// an unnamed file (O_TMPFILE) linked to its name once written and synced
// where the platform has one, else a temporary name that the next write in
// the folder removes once its writer is gone. An existing file is never
// replaced. The folder is synced.
func writeNew(path string, data []byte, perm os.FileMode) error {
	return writeNewWith(path, perm, func(f *os.File) ([]byte, error) {
		_, err := through(f).Write(data)
		return data, err
	})
}

// writeNewWith is writeNew of the bytes produce writes to the new file
// (and returns, all of them): produce runs once; when an unnamed file
// cannot be named, its bytes go again to a named one.
func writeNewWith(path string, perm os.FileMode, produce func(f *os.File) ([]byte, error)) error {
	dir := filepath.Dir(path)
	removeStaleTemps(dir)
	f, err := openUnnamed(dir)
	switch {
	case err == nil:
		var data []byte
		data, err = writeUnnamed(f, path, perm, produce)
		if !errors.Is(err, errNoLink) {
			return err
		}
		produce = func(f *os.File) ([]byte, error) {
			_, err := through(f).Write(data)
			return data, err
		}
	case !unnamedUnsupported(err):
		return fmt.Errorf("create in %s: %w", dir, err)
	}
	return writeNamed(dir, path, perm, produce)
}

// errNoLink says an unnamed file cannot be given a name here (no /proc).
var errNoLink = errors.New("cannot link an unnamed file")

func writeUnnamed(f *os.File, path string, perm os.FileMode, produce func(*os.File) ([]byte, error)) ([]byte, error) {
	defer f.Close()
	data, err := fill(f, perm, produce)
	if err != nil {
		return data, fmt.Errorf("write %s: %w", path, err)
	}
	if testHookBeforeLink != nil {
		testHookBeforeLink("")
	}
	if err := step("link"); err != nil {
		return data, err
	}
	if err := linkUnnamed(f, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return data, fmt.Errorf("%s exists already", path)
		}
		return data, err
	}
	return data, syncName(f, path)
}

// tempPrefix and tempSuffix frame a temporary name: .skein-PID-RANDOM.tmp.
// The pid lets the next writer tell a dead writer's file from a live one's.
const tempPrefix, tempSuffix = ".skein-", ".tmp"

func writeNamed(dir, path string, perm os.FileMode, produce func(*os.File) ([]byte, error)) error {
	f, err := CreateTemp(dir, 0o600)
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		os.Remove(tmp) // a no-op once renamed; after a link, the new name stays
		f.Close()
	}()
	if _, err := fill(f, perm, produce); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if testHookBeforeLink != nil {
		testHookBeforeLink(tmp)
	}
	// A link never replaces a file; a rename would.
	err = step("link")
	if err == nil {
		err = os.Link(tmp, path)
	}
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s exists already", path)
		}
		// Only a file system without hard links gets a rename instead: a
		// link that failed for another reason (no room, no permission, an
		// I/O error) fails the write.
		if !linkUnsupported(err) {
			return err
		}
		if err := renameNoReplace(tmp, path); err != nil {
			if errors.Is(err, os.ErrExist) {
				return fmt.Errorf("%s exists already", path)
			}
			return err
		}
	}
	return syncName(f, path)
}

// linkUnsupported says whether a link failed because the file system has
// no hard links (FAT says EPERM; others ENOSYS or EOPNOTSUPP).
func linkUnsupported(err error) bool {
	return errors.Is(err, errors.ErrUnsupported) || errors.Is(err, syscall.EPERM)
}

// syncName syncs the folder once the new file f has its name, path. When
// the sync fails the write has failed, and the name is taken back (if it
// still names f), so that nothing is left that the caller was told is not
// there.
func syncName(f *os.File, path string) error {
	err := step("syncdir")
	if err == nil {
		err = syncDir(filepath.Dir(path))
	}
	if err == nil {
		return nil
	}
	if fi, serr := f.Stat(); serr == nil {
		if now, lerr := os.Lstat(path); lerr == nil && os.SameFile(fi, now) {
			os.Remove(path)
		}
	}
	return err
}

// fill sets a new file's mode, has produce write its bytes, and syncs it.
func fill(f *os.File, perm os.FileMode, produce func(*os.File) ([]byte, error)) ([]byte, error) {
	if err := f.Chmod(perm); err != nil {
		return nil, err
	}
	data, err := produce(f)
	if err != nil {
		return data, err
	}
	return data, through(f).Sync()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

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
		if !ok || pid == os.Getpid() || alive(pid) {
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
	if tryLockFile(f) {
		return
	}
	if now, err := os.Lstat(path); err != nil || !os.SameFile(fi, now) {
		return
	}
	os.Remove(path)
}

// renameIfAbsent renames old to new when nothing has the name new.
func renameIfAbsent(old, new string) error {
	if _, err := os.Lstat(new); err == nil {
		return &os.LinkError{Op: "rename", Old: old, New: new, Err: os.ErrExist}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.Rename(old, new)
}

// CreateTemp makes a temporary file in dir, for a new session
// (writeNamed) or another writer of skein's (an export), named
// .skein-PID-RANDOM.tmp and locked, so that RemoveStaleTemps removes it
// once its writer is gone. The caller removes or renames it.
func CreateTemp(dir string, perm os.FileMode) (*os.File, error) {
	var r [8]byte
	_, _ = rand.Read(r[:])
	tmp := filepath.Join(dir, tempPrefix+strconv.Itoa(os.Getpid())+"-"+hex.EncodeToString(r[:])+tempSuffix)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return nil, err
	}
	// The lock says a live writer owns the file, whatever its pid means
	// to the process that looks (another pid namespace, another host).
	_ = tryLockFile(f)
	return f, nil
}

// RemoveStaleTemps removes the temporary files a skein killed midway left
// in dir (see removeStaleTemps).
func RemoveStaleTemps(dir string) { removeStaleTemps(dir) }
