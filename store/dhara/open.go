package dhara

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"skein/internal/hugemem"
	"skein/model"
)

// NotSessionError is a path that is not a Dhara session folder.
type NotSessionError struct{ Reason string }

func (e *NotSessionError) Error() string { return "not a Dhara session: " + e.Reason }

// IsSession reports whether dir looks like a session folder: a directory
// holding entries.jsonl, or a meta.json with a string id and formatVersion
// (a folder of someone else's with a meta.json of its own is not one).
func IsSession(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	if st, err := os.Lstat(filepath.Join(dir, EntriesFile)); err == nil && st.Mode().IsRegular() {
		return true
	}
	data, err := readRegular(filepath.Join(dir, MetaFile), 0)
	if err != nil || len(data) > 1<<20 {
		return false
	}
	m := parseMeta(data, new([]model.Diagnostic))
	return m.ID != "" && m.FormatVersion != ""
}

// OnlySessionFiles reports whether dir holds nothing but a session's files
// (and skein's lock and temporary files): what delete may move to the trash
// whole. The name of what else it holds, when it holds something.
func OnlySessionFiles(dir string) (bool, string) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return false, err.Error()
	}
	for _, de := range des {
		switch n := de.Name(); {
		case n == MetaFile || n == TreeFile || n == EntriesFile || n == ArchiveFile || n == LockFile:
		case staleTemp.MatchString(n):
		default:
			return false, n
		}
	}
	return true, ""
}

// ReadFiles reads a session folder's files in the order that makes a
// reader see every entry once while a writer appends or moves entries
// (DECISIONS.md 4): meta.json, tree.json, entries.jsonl, archive.jsonl.
func ReadFiles(dir string) (Files, error) {
	var f Files
	if err := checkDir(dir); err != nil {
		return f, err
	}
	found := false
	for _, x := range []struct {
		name string
		dst  *[]byte
	}{{MetaFile, &f.Meta}, {TreeFile, &f.Tree}, {EntriesFile, &f.Entries}, {ArchiveFile, &f.Archive}} {
		data, err := readRegular(filepath.Join(dir, x.name), 0)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return f, err
		}
		if data == nil {
			data = []byte{}
		}
		*x.dst, found = data, true
	}
	if f.Meta == nil && f.Entries == nil {
		if !found {
			return f, &NotSessionError{"no " + MetaFile + " or " + EntriesFile + " in " + dir}
		}
	}
	return f, nil
}

func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &NotSessionError{dir + " is not a folder"}
	}
	return nil
}

// readRegular reads a regular file whole, or its last tail bytes (from a
// line's start) when tail > 0; it refuses anything else (a FIFO would
// block, a device never end).
func readRegular(path string, tail int64) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	off := int64(0)
	if tail > 0 && size > tail {
		off = size - tail
	}
	data, err := hugemem.ReadAt(f, off, int(size-off))
	if err != nil {
		return nil, err
	}
	if off > 0 {
		// Start at a line: the partial first line is not the tail's (unless
		// the tail begins right after a newline).
		prev := make([]byte, 1)
		if _, err := f.ReadAt(prev, off-1); err == nil && prev[0] == '\n' {
			return data, nil
		}
		for i, c := range data {
			if c == '\n' {
				return data[i+1:], nil
			}
		}
		return data[:0], nil
	}
	return data, nil
}

// Open reads the session folder dir.
func Open(dir string) (*Session, error) {
	f, err := ReadFiles(dir)
	if err != nil {
		return nil, err
	}
	return Parse(f), nil
}

// OpenTail reads meta.json, tree.json and the last tail bytes of
// entries.jsonl: a first screen of a large session. Tree ids whose entries
// were not read are left out.
func OpenTail(dir string, tail int64) (*Session, error) {
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	var f Files
	var err error
	if f.Meta, err = readRegular(filepath.Join(dir, MetaFile), 0); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if f.Tree, err = readRegular(filepath.Join(dir, TreeFile), 0); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if f.Entries, err = readRegular(filepath.Join(dir, EntriesFile), tail); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if f.Meta == nil && f.Entries == nil {
		return nil, &NotSessionError{"no " + MetaFile + " or " + EntriesFile + " in " + dir}
	}
	s := Parse(f)
	s.Diagnostics = nil // line numbers of a tail are not the file's
	return s, nil
}

// MetaID is the id in dir's meta.json, "" when it has none.
func MetaID(dir string) string {
	data, err := readRegular(filepath.Join(dir, MetaFile), 0)
	if err != nil || len(data) > 1<<20 {
		return ""
	}
	return parseMeta(data, new([]model.Diagnostic)).ID
}
