package store

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"skein/internal/safewrite"
	"strings"
)

// OutputError says why an output (an export) will never be written where
// it was asked to go.
type OutputError struct {
	Path   string
	Reason string
}

func (e *OutputError) Error() string { return e.Reason }

// CheckOutput tells whether an output may be written at path: never (an
// *OutputError) inside an agent's session store (the default roots), into a
// Dhara session folder, through a link, over anything not a regular file,
// or over a file that reads as a session or an export of any format skein
// imports. exists says a file of the user's is there, which only they may
// allow to be replaced (--force, or a yes).
func (e Env) CheckOutput(path string) (exists bool, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, err
	}
	dir := filepath.Dir(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	for _, root := range e.DefaultRoots() {
		r := root
		if real, err := filepath.EvalSymlinks(root); err == nil {
			r = real
		}
		if within(dir, r) {
			return false, &OutputError{Path: path, Reason: fmt.Sprintf("%s is inside an agent's session store (%s); skein writes no output there", path, root)}
		}
	}
	if isSessionDir(dir) {
		return false, &OutputError{Path: path, Reason: fmt.Sprintf("%s is inside a Dhara session folder; skein writes no output there", path)}
	}
	fi, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return false, &OutputError{Path: path, Reason: fmt.Sprintf("%s is a link; skein does not write through links (name a new file)", path)}
	case fi.IsDir() && isSessionDir(abs):
		return false, &OutputError{Path: path, Reason: fmt.Sprintf("%s is a Dhara session folder", path)}
	case !fi.Mode().IsRegular():
		return false, &OutputError{Path: path, Reason: fmt.Sprintf("%s is not a regular file", path)}
	}
	if f, ok := holdsSession(abs); ok {
		return false, &OutputError{Path: path, Reason: fmt.Sprintf("%s is a session (%s); skein never writes over one", path, f)}
	}
	return true, nil
}

// holdsSession names the format of the session or export the file at path
// holds (false: none skein reads). Only the converter knows every format
// skein imports, the exports' JSON documents among them, and store does
// not import it: store/convert sets this when it is linked in
// (SetSessionGuess), as every command and screen that writes an output
// does. Without it, the file's first lines say (Detect).
var holdsSession = func(path string) (string, bool) {
	if b := detectFile(path); b != nil {
		return string(b.Format()), true
	}
	return "", false
}

// SetSessionGuess makes guess what CheckOutput asks of a file that is
// there: the format of the session or export it holds, or an error when it
// holds none. store/convert calls it when the program starts.
func SetSessionGuess(guess func(path string) (string, error)) {
	holdsSession = func(path string) (string, bool) {
		f, err := guess(path)
		return f, err == nil
	}
}

// within reports whether path is root or inside it.
func within(path, root string) bool {
	if root == "" || root == "." {
		return false
	}
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// outputFS is the file system calls WriteOutput makes; tests fail them.
var outputFS = struct {
	Create func(dir string) (*os.File, error)
	Write  func(f *os.File, p []byte) (int, error)
	Sync   func(*os.File) error
	Link   func(old, new string) error
	Rename func(old, new string) error
}{
	Create: func(dir string) (*os.File, error) { return safewrite.CreateTemp(dir, 0o600) },
	Write:  (*os.File).Write,
	Sync:   (*os.File).Sync,
	Link:   os.Link,
	Rename: os.Rename,
}

// WriteOutput writes what produce writes to a temporary file beside path,
// synced, then puts it at path: with replace by a rename over what is
// there; without, by a link that fails when path exists (fs.ErrExist), so
// that a file made meanwhile is never replaced. On any failure nothing is
// left at path that was not there, and the temporary file is removed (one
// a killed skein left is removed by the next write in the folder). The
// output streams: it is never held whole in memory. It gets mode perm
// (OutputMode: the session's own, so that a private session's export is
// private too).
func WriteOutput(path string, replace bool, perm fs.FileMode, produce func(w io.Writer) error) error {
	dir := filepath.Dir(path)
	safewrite.RemoveStaleTemps(dir)
	f, err := outputFS.Create(dir)
	if err != nil {
		return err
	}
	tmp := f.Name()
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(outputWriter{f}, 1<<20)
	if err := produce(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := outputFS.Sync(f); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	done = true
	if replace {
		err = outputFS.Rename(tmp, path)
	} else {
		err = outputFS.Link(tmp, path)
		if err != nil && !errors.Is(err, fs.ErrExist) && (errors.Is(err, errors.ErrUnsupported) || errors.Is(err, fs.ErrPermission)) {
			err = copyFile(tmp, path, perm) // made exclusively: a file there stays
		}
		os.Remove(tmp)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	// The new name survives a crash once its folder is synced; where that
	// fails, the output is there all the same and nothing more can be done.
	_ = safewrite.SyncDir(filepath.Dir(path))
	return nil
}

// outputWriter writes through outputFS.Write.
type outputWriter struct{ f *os.File }

func (w outputWriter) Write(p []byte) (int, error) { return outputFS.Write(w.f, p) }

// OutputMode is the mode of an output made from the session at path: the
// user may read and write it; others may read it when they may read the
// session (a private session's export is private), 0600 when the session
// cannot be looked at. A read-only session (a copy of another's log) does
// not make a read-only export.
func OutputMode(path string) fs.FileMode {
	fi, err := os.Stat(path)
	if err != nil {
		return 0o600
	}
	return 0o600 | fi.Mode().Perm()&0o044
}
