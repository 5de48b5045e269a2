// Package cachefile reads and writes the files of skein's cache folder
// (the list's index, the text index's manifest, segments and lock), which
// are skein's own and a cache: a name there that holds anything but a
// regular file (a named pipe, a device, a folder, a link) is read as no
// file, and replaced by the next write. A read never follows a link and
// never waits for a pipe's writer. A file is written whole to a temporary
// name, synced and renamed, so that a reader finds the old file or the new
// one and never a part of one; a test can make the writes fail after any
// number of bytes (FailAfter).
package cachefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"skein/internal/randid"
)

// ErrNotRegular is a cache name holding something other than a regular
// file: read as a missing file.
var ErrNotRegular = errors.New("not a regular file")

// Open opens the regular file at path for reading: a link at the name is
// not followed, a pipe's open does not wait, and anything but a regular
// file once open is closed again (ErrNotRegular).
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock|oNoFollow, 0)
	if err != nil {
		if isLinkRefused(path, err) {
			return nil, nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
		}
		return nil, nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// isLinkRefused reports whether an open failed because path is a link.
func isLinkRefused(path string, err error) bool {
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	st, lerr := os.Lstat(path)
	return lerr == nil && st.Mode()&fs.ModeSymlink != 0
}

// ReadFile reads the regular file at path whole (Open's rules).
func ReadFile(path string) ([]byte, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, 0, st.Size()+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// MkdirAll makes the folder dir and those above it; a last name in the
// way that is not a folder or a link (a file, a pipe) is removed first.
func MkdirAll(dir string) error {
	if st, err := os.Lstat(dir); err == nil && !st.IsDir() && st.Mode()&fs.ModeSymlink == 0 {
		if err := os.Remove(dir); err != nil {
			return err
		}
	}
	return os.MkdirAll(dir, 0o700)
}

// File is a new file of the cache folder being written under a temporary
// name; its writes go through the test's faults.
type File struct {
	f *os.File
}

// Create makes a new file in dir under a temporary name starting with
// prefix (and holding ".tmp", which tells a clean-up it is one).
func Create(dir, prefix string) (*File, error) {
	if err := MkdirAll(dir); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, prefix+".tmp"+randid.Hex(8)), os.O_RDWR|os.O_CREATE|os.O_EXCL|oNoFollow, 0o600)
	if err != nil {
		return nil, err
	}
	return &File{f}, nil
}

// Name is the file's temporary name.
func (f *File) Name() string { return f.f.Name() }

// Write writes p, or as much of it as the test's faults let through.
func (f *File) Write(p []byte) (int, error) {
	allowed := take(len(p))
	n, err := f.f.Write(p[:allowed])
	if err == nil && allowed < len(p) {
		err = errFull
	}
	return n, err
}

// ReadAt reads what was written.
func (f *File) ReadAt(p []byte, off int64) (int, error) { return f.f.ReadAt(p, off) }

// Discard closes the file and removes it.
func (f *File) Discard() {
	f.f.Close()
	os.Remove(f.f.Name())
}

// Commit syncs the file, closes it and renames it to path, replacing what
// was there (a name holding a pipe or a link is replaced, not followed; an
// empty folder is removed). On failure the file is removed and path is as
// it was.
func (f *File) Commit(path string) error {
	err := syncFile(f.f)
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = rename(f.f.Name(), path); err != nil {
			if st, lerr := os.Lstat(path); lerr == nil && st.IsDir() && os.Remove(path) == nil {
				err = rename(f.f.Name(), path)
			}
		}
	}
	if err != nil {
		os.Remove(f.f.Name())
	}
	return err
}

// WriteFile writes data to path: whole, or not at all.
func WriteFile(path string, data []byte) error {
	f, err := Create(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Discard()
		return err
	}
	return f.Commit(path)
}

// The faults: a budget of bytes the writes may still write (-1: any), as
// a disk that fills up; once it is spent, syncs and renames fail too.
var (
	faultMu sync.Mutex
	budget  int64 = -1
	written int64
	sizes   *[]int // the writes' sizes, while a test records them
)

var errFull = fmt.Errorf("cache write: %w", errors.New("no space left on device (a test's fault)"))

// take is how many of n bytes the faults let a write write.
func take(n int) int {
	faultMu.Lock()
	defer faultMu.Unlock()
	if budget >= 0 && int64(n) > budget {
		n = int(budget)
	}
	if budget >= 0 {
		budget -= int64(n)
	}
	written += int64(n)
	if sizes != nil {
		*sizes = append(*sizes, n)
	}
	return n
}

// spent reports whether the faults' budget is spent.
func spent() bool {
	faultMu.Lock()
	defer faultMu.Unlock()
	return budget == 0
}

func syncFile(f *os.File) error {
	if spent() {
		return errFull
	}
	return f.Sync()
}

func rename(from, to string) error {
	if spent() {
		return errFull
	}
	return os.Rename(from, to)
}

// FailAfter makes the writes fail, as on a full disk, once n more bytes
// are written (and the syncs and renames after them), until restore is
// called. For tests: a write of the index must leave the old index or the
// new one whatever n is.
func FailAfter(n int64) (restore func()) {
	faultMu.Lock()
	defer faultMu.Unlock()
	budget = n
	return func() {
		faultMu.Lock()
		defer faultMu.Unlock()
		budget = -1
	}
}

// Written is how many bytes the writes have written since the program
// started: a test's way to know how many byte counts to fail at.
func Written() int64 {
	faultMu.Lock()
	defer faultMu.Unlock()
	return written
}

// Record keeps the size of each write until stop, which returns them:
// a test's way to find the byte counts at which a failure differs (each
// write's first and last bytes, and where one ends and the sync follows).
func Record() (stop func() []int) {
	faultMu.Lock()
	defer faultMu.Unlock()
	var got []int
	sizes = &got
	return func() []int {
		faultMu.Lock()
		defer faultMu.Unlock()
		sizes = nil
		return got
	}
}

// FailPoints is the byte counts a test fails a run at, given the sizes of
// its writes (Record): around each write's start and end, where what a
// failure leaves changes, and every stride-th byte between.
func FailPoints(writes []int, stride int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	add := func(n int64) {
		if n >= 0 && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	var at int64
	for _, w := range writes {
		end := at + int64(w)
		for _, n := range []int64{at, at + 1, at + 2, end - 2, end - 1, end} {
			if n >= at && n <= end {
				add(n)
			}
		}
		for n := at; n < end; n += stride {
			add(n)
		}
		at = end
	}
	add(at)
	slices.Sort(out)
	return out
}
