package dhara

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"skein/internal/safewrite"
	"skein/internal/writeback"
)

// fileSystem is what skein's writes do to the disk, in a session folder
// and in an import's new folder: the one place they go through, so that a
// test can make any step fail (a full disk at a chosen byte, a sync or a
// rename that fails) and check what the write left.
type fileSystem interface {
	OpenFile(name string, flag int, perm fs.FileMode) (writeFile, error)
	Rename(from, to string) error
	// RenameNew gives from the name to, which must not exist: a new
	// session folder never replaces one (as a plain rename replaces an
	// empty folder).
	RenameNew(from, to string) error
	// Link gives the file from a second name; it never replaces one.
	Link(from, to string) error
	Mkdir(name string, perm fs.FileMode) error
	SyncDir(dir string) error
	// Remove and RemoveAll clean up after a failure: a full disk does not
	// stop them, and what they leave is removed by the next write.
	Remove(name string) error
	RemoveAll(name string) error
}

// writeFile is a file a write has open.
type writeFile interface {
	io.Writer
	io.ReaderAt
	Stat() (fs.FileInfo, error)
	Chmod(mode fs.FileMode) error
	// Reserve allocates n bytes at off without changing the size, where
	// the file system can; a full disk says so here, before a byte is
	// written.
	Reserve(off, n int64) error
	Truncate(size int64) error
	Sync() error
	Close() error
	// StartWriteback starts the disk's writing of n bytes at off.
	StartWriteback(off, n int64)
}

// fsys is the file system writes use; tests replace it.
var fsys fileSystem = osFS{}

type osFS struct{}

func (osFS) OpenFile(name string, flag int, perm fs.FileMode) (writeFile, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return osFile{f}, nil
}

func (osFS) Rename(from, to string) error              { return os.Rename(from, to) }
func (osFS) RenameNew(from, to string) error           { return safewrite.RenameNoReplace(from, to) }
func (osFS) Link(from, to string) error                { return os.Link(from, to) }
func (osFS) Mkdir(name string, perm fs.FileMode) error { return os.Mkdir(name, perm) }
func (osFS) Remove(name string) error                  { return os.Remove(name) }
func (osFS) RemoveAll(name string) error               { return os.RemoveAll(name) }

// SyncDir syncs a folder, so that the names just made or renamed in it
// stay; a file system that cannot sync a folder is not an error.
func (osFS) SyncDir(dir string) error { return safewrite.SyncDir(dir) }

type osFile struct{ *os.File }

func (f osFile) Reserve(off, n int64) error  { return safewrite.Reserve(f.File, off, n) }
func (f osFile) StartWriteback(off, n int64) { writeback.Start(f.File, off, n) }

// syncDir syncs dir through fsys.
func syncDir(dir string) error { return fsys.SyncDir(dir) }

// tempName is a temporary name for the file name in dir, which
// removeStaleTemps knows: <name>.tmp<pid>.<base 36 time>.
func tempName(dir, name string) string {
	return filepath.Join(dir, name+".tmp"+strconv.Itoa(os.Getpid())+"."+strconv.FormatInt(tempStamp(), 36))
}

// lastStamp is the last time a temporary name was given: a clock that has
// not moved since gives the next one a nanosecond more, so that a write's
// temporary file and its backup link never have one name.
var lastStamp atomic.Int64

func tempStamp() int64 {
	for {
		last, n := lastStamp.Load(), time.Now().UnixNano()
		if n <= last {
			n = last + 1
		}
		if lastStamp.CompareAndSwap(last, n) {
			return n
		}
	}
}

// modeOf is the mode of the file at path, for the file that replaces it;
// 0o600 for a new one.
func modeOf(path string) fs.FileMode {
	if st, err := os.Stat(path); err == nil {
		return st.Mode().Perm()
	}
	return 0o600
}

// writeNew writes data to a new file at path with mode, synced. A failure
// leaves no file.
func writeNew(path string, data []byte, mode fs.FileMode) (fs.FileInfo, error) {
	f, err := fsys.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return nil, err
	}
	err = f.Chmod(mode) // the file's mode, not the umask's
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	var fi fs.FileInfo
	if err == nil {
		fi, err = f.Stat()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fsys.Remove(path)
		return nil, err
	}
	return fi, nil
}

// replacement is a file of the folder about to be replaced: its new bytes
// in a temporary file, synced, before anything changes; then the rename,
// which can be taken back until the write's last rename is done.
type replacement struct {
	dir, name string
	tmp       string      // the new bytes, until renamed
	fi        fs.FileInfo // the new file
	old       []byte      // the bytes it replaces
	existed   bool        // whether there was a file to replace
	backup    string      // a second name of the old file, "" when none
	// final: the rename is the write's last step, never taken back, and
	// the old file needs no second name.
	final   bool
	renamed bool
}

// prepare writes the new bytes of dir/name (whose bytes are now old, when
// it existed) to a temporary file.
func prepare(dir, name string, old []byte, existed bool, data []byte) (*replacement, error) {
	r := &replacement{dir: dir, name: name, old: old, existed: existed, tmp: tempName(dir, name)}
	fi, err := writeNew(r.tmp, data, modeOf(filepath.Join(dir, name)))
	if err != nil {
		return nil, err
	}
	r.fi = fi
	return r, nil
}

// commit renames the new file into place, first giving the old one a
// second name (a link: no byte written) to put back if a later step fails.
func (r *replacement) commit() error {
	path := filepath.Join(r.dir, r.name)
	if r.existed && !r.final {
		b := tempName(r.dir, r.name)
		if fsys.Link(path, b) == nil {
			r.backup = b
		}
	}
	if err := fsys.Rename(r.tmp, path); err != nil {
		return err
	}
	r.renamed = true
	return nil
}

// undo puts the old file back after commit, when the file there is still
// the one commit put: by its second name; by removing it when there was
// none; else by writing the old bytes again.
func (r *replacement) undo() {
	if !r.renamed {
		return
	}
	path := filepath.Join(r.dir, r.name)
	if now, err := os.Lstat(path); err != nil || !os.SameFile(now, r.fi) {
		return
	}
	switch {
	case r.backup != "":
		if fsys.Rename(r.backup, path) == nil {
			r.backup = ""
		}
	case !r.existed:
		fsys.Remove(path)
	default:
		if back, err := prepare(r.dir, r.name, nil, false, r.old); err == nil {
			if back.commit() != nil {
				fsys.Remove(back.tmp)
			}
		}
	}
	r.renamed = false
	syncDir(r.dir)
}

// cleanup removes what the replacement left beside the file: its
// temporary file when it was not renamed, and the old file's second name.
// It does not undo: a write killed midway runs no code either, and the
// next write removes what cleanup could not.
func (r *replacement) cleanup() {
	if r == nil {
		return
	}
	if !r.renamed {
		fsys.Remove(r.tmp)
	}
	if r.backup != "" {
		fsys.Remove(r.backup)
	}
}

// appended is bytes appended to a file, which can be taken back while the
// write they belong to is not done.
type appended struct {
	f       writeFile
	from, n int64  // the size found, and the bytes appended after it
	buf     []byte // what was appended
}

// appendWhole appends buf to f, whose size was found to be size (and
// still is: the caller holds the folder's lock and checked), as every
// writer of skein's appends (safewrite.Append): in one write, synced, the
// space reserved first (through f's Reserve), and on a failure what was
// written cut off again while it is the file's last bytes (else another
// writer appended after it, and cutting would cut its line). The error
// says when the bytes could not be taken back. What it returns takes them
// back later, when a step of the write after the append fails.
func appendWhole(f writeFile, size int64, buf []byte) (*appended, error) {
	if err := safewrite.Append(f, size, buf); err != nil {
		return nil, err
	}
	return &appended{f: f, from: size, n: int64(len(buf)), buf: buf}, nil
}

// undo takes the bytes appendWhole wrote back (safewrite.TakeBack: at the
// size it found, or after a line a writer that takes no lock appended
// first), while nothing was appended after them.
func (a *appended) undo() error {
	if a == nil || a.n < 0 {
		return nil
	}
	if a.n > 0 {
		if err := safewrite.TakeBack(a.f, a.from, a.buf[:a.n]); err != nil {
			return err
		}
	}
	a.n = -1
	return nil
}
