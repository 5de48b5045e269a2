package dhara

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"skein/internal/safewrite"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// faultFS is the disk of skein's writes (fsys) failing at one chosen
// step: a write that stops at a chosen byte (a short write, then a full
// disk's error), or an open, a reservation, a chmod, a sync, a close, a
// rename, a link, a mkdir or a folder's sync that fails. With no step
// chosen it records every step a write makes, so that a test can then
// fail each in turn. A step is named by its operation and file (pid and
// time taken out of temporary names) and which time the write did it.
type faultFS struct {
	mu    sync.Mutex
	times map[string]int // how often each step was done so far
	steps []step         // recorded
	fail  *step          // the step that fails, nil: none
	also  *step          // a second step that fails (not a write's byte)
	fired bool
}

type step struct {
	key  string
	nth  int
	size int64 // a write's: the bytes written to that open file (recorded)
	at   int64 // a write's failure: the byte it stops at; -1 for the step itself
}

func (s step) String() string {
	if s.at >= 0 {
		return fmt.Sprintf("%s #%d at byte %d", s.key, s.nth, s.at)
	}
	return fmt.Sprintf("%s #%d", s.key, s.nth)
}

var (
	tempPart    = regexp.MustCompile(`\.tmp[0-9]+\.[0-9a-z]+$`)
	stagingPart = regexp.MustCompile(`^\.import-.*-[0-9]+-[0-9a-f]{16}$`)
	newIDPart   = regexp.MustCompile(`^[0-9a-f]{16}$`)
)

// keyName is a file's name in a step: its base, with what differs from
// one run to the next (pid, time, an import's new id) taken out.
func keyName(path string) string {
	name := tempPart.ReplaceAllString(filepath.Base(path), ".tmp")
	name = stagingPart.ReplaceAllString(name, ".import")
	return newIDPart.ReplaceAllString(name, "<id>")
}

// do counts a step and says whether it is the one that fails.
func (f *faultFS) do(key string) (nth int, fails bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.times == nil {
		f.times = map[string]int{}
	}
	nth = f.times[key]
	f.times[key]++
	if f.fail == nil {
		f.steps = append(f.steps, step{key: key, nth: nth, at: -1})
		return nth, false
	}
	if f.fail.at < 0 && f.fail.key == key && f.fail.nth == nth {
		f.fired = true
		return nth, true
	}
	if a := f.also; a != nil && a.key == key && a.nth == nth {
		return nth, true
	}
	return nth, false
}

var errFull = &os.PathError{Op: "write", Path: "(injected)", Err: syscall.ENOSPC}

func (f *faultFS) OpenFile(name string, flag int, perm fs.FileMode) (writeFile, error) {
	nth, fails := f.do("open " + keyName(name))
	if fails {
		return nil, errFull
	}
	w, err := osFS{}.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	ff := &faultFile{writeFile: w, fs: f, name: keyName(name), nth: nth}
	if f.fail == nil {
		f.mu.Lock()
		ff.rec = len(f.steps)
		f.steps = append(f.steps, step{key: "write " + ff.name, nth: nth})
		f.mu.Unlock()
	}
	return ff, nil
}

func (f *faultFS) Rename(from, to string) error {
	if _, fails := f.do("rename " + keyName(from) + " " + keyName(to)); fails {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EIO}
	}
	return os.Rename(from, to)
}

func (f *faultFS) RenameNew(from, to string) error {
	if _, fails := f.do("rename " + keyName(from) + " " + keyName(to)); fails {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EIO}
	}
	return safewrite.RenameNoReplace(from, to)
}

func (f *faultFS) Link(from, to string) error {
	if _, fails := f.do("link " + keyName(from) + " " + keyName(to)); fails {
		return &os.LinkError{Op: "link", Old: from, New: to, Err: syscall.ENOSPC}
	}
	return os.Link(from, to)
}

func (f *faultFS) Mkdir(name string, perm fs.FileMode) error {
	if _, fails := f.do("mkdir " + keyName(name)); fails {
		return &os.PathError{Op: "mkdir", Path: name, Err: syscall.ENOSPC}
	}
	return os.Mkdir(name, perm)
}

// SyncDir and a file's Sync are steps that can fail, but sync nothing:
// these tests lose no power, and thousands of syncs would take minutes.
func (f *faultFS) SyncDir(dir string) error {
	if _, fails := f.do("syncdir " + keyName(dir)); fails {
		return &os.PathError{Op: "sync", Path: dir, Err: syscall.EIO}
	}
	return nil
}

func (f *faultFS) Remove(name string) error    { return os.Remove(name) }
func (f *faultFS) RemoveAll(name string) error { return os.RemoveAll(name) }

// faultFile is a file faultFS opened.
type faultFile struct {
	writeFile
	fs      *faultFS
	name    string
	nth     int
	written int64
	rec     int // its write step among the recorded
}

func (w *faultFile) Write(p []byte) (int, error) {
	f := w.fs
	f.mu.Lock()
	if f.fail == nil {
		f.steps[w.rec].size += int64(len(p))
	}
	stop := int64(-1)
	if x := f.fail; x != nil && x.at >= 0 && x.key == "write "+w.name && x.nth == w.nth && w.written+int64(len(p)) > x.at {
		stop = x.at - w.written
		f.fired = true
	}
	f.mu.Unlock()
	if stop >= 0 {
		n, err := w.writeFile.Write(p[:stop])
		w.written += int64(n)
		if err == nil {
			err = errFull
		}
		return n, err
	}
	n, err := w.writeFile.Write(p)
	w.written += int64(n)
	return n, err
}

func (w *faultFile) step(op string, err error) error {
	if _, fails := w.fs.do(op + " " + w.name); fails {
		return err
	}
	return nil
}

func (w *faultFile) Reserve(off, n int64) error {
	if err := w.step("reserve", errFull); err != nil {
		return err
	}
	return w.writeFile.Reserve(off, n)
}

func (w *faultFile) Chmod(mode fs.FileMode) error {
	if err := w.step("chmod", syscall.EIO); err != nil {
		return err
	}
	return w.writeFile.Chmod(mode)
}

func (w *faultFile) Sync() error { return w.step("sync", syscall.EIO) }

func (w *faultFile) Close() error {
	err := w.writeFile.Close()
	if errors.Is(err, os.ErrClosed) {
		return err // closed before: not a step
	}
	if ferr := w.step("close", syscall.EIO); ferr != nil {
		return ferr
	}
	return err
}

// points are the failures to inject for a recorded run: each byte of
// each write (the write stops before it), and every other step.
func (f *faultFS) points() []step {
	var out []step
	for _, s := range f.steps {
		if strings.HasPrefix(s.key, "write ") {
			for at := int64(0); at < s.size; at++ {
				out = append(out, step{key: s.key, nth: s.nth, at: at})
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

// noSync is faultFS failing nothing: the writes after a failure, which
// the test checks, sync nothing either.
func noSync() *faultFS { return &faultFS{fail: &step{key: "nothing", at: -1}} }

// memDir is a temporary folder in memory where there is one, else on
// disk: these tests make thousands of folders, and a disk's file system
// writes back a file renamed over another (ext4's auto_da_alloc) even when
// nothing syncs.
func memDir(t *testing.T) string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "skein-dhara-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

// useFS has the writes use f until the test ends.
func useFS(t *testing.T, f fileSystem) {
	old := fsys
	fsys = f
	t.Cleanup(func() { fsys = old })
}

// folderFiles are a folder's files and their bytes, the lock aside.
func folderFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, de := range des {
		if de.Name() == LockFile {
			continue
		}
		if !de.Type().IsRegular() {
			out[de.Name()+"/"] = ""
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[de.Name()] = string(b)
	}
	return out
}

func writeFolder(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func sameFiles(a, b map[string]string) string {
	var diff []string
	for name, x := range a {
		if y, ok := b[name]; !ok {
			diff = append(diff, name+" gone")
		} else if x != y {
			diff = append(diff, name+" changed:\n"+y)
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			diff = append(diff, name+" appeared")
		}
	}
	sort.Strings(diff)
	return strings.Join(diff, "; ")
}

// diagnostics is all doctor reports, warnings too.
func diagnostics(t *testing.T, dir string) []string {
	t.Helper()
	diags, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range diags {
		out = append(out, d.Where(filepath.Base(dir))+": "+d.Msg)
	}
	return out
}
