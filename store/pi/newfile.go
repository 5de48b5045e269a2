package pi

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"skein/internal/safewrite"
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
	safewrite.RemoveStaleTemps(dir)
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

func writeNamed(dir, path string, perm os.FileMode, produce func(*os.File) ([]byte, error)) error {
	f, err := safewrite.CreateTemp(dir, 0o600)
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
		if err := safewrite.RenameNoReplace(tmp, path); err != nil {
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
		err = safewrite.SyncDir(filepath.Dir(path))
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
