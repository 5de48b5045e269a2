package dhara

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"skein/internal/jscan"
)

// stillFor is how long entries.jsonl must not have changed before skein
// rewrites it for the archive move: a writer that does not take the lock
// would otherwise append to a file that is about to be replaced.
var stillFor = 2 * time.Second

// afterArchive runs between the move's two renames (the tests' place to
// stop a mover there); beforeEntriesRename after the last check of
// entries.jsonl, just before it is replaced (the tests' place for a writer
// that does not lock).
var afterArchive, beforeEntriesRename = func() {}, func() {}

// lock takes the session folder's advisory lock (.lock in it), waiting for
// it, and returns its release.
func lock(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_RDWR|os.O_CREATE|oNoFollow, 0o600)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { unlockFile(f); f.Close() }, nil
}

// still reports whether entries.jsonl has not changed for stillFor, and
// its stat then.
func still(dir string) (fs.FileInfo, bool) {
	st, err := os.Stat(filepath.Join(dir, EntriesFile))
	if err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	return st, time.Since(st.ModTime()) >= stillFor
}

// recoverMove finishes an archive move a kill interrupted (lines in both
// files, the same bytes) and removes the temporary files a killed write
// left; it runs under the lock at the start of every write.
func recoverMove(dir string) error {
	removeStaleTemps(dir)
	if _, err := os.Stat(filepath.Join(dir, ArchiveFile)); err != nil {
		return nil
	}
	st, ok := still(dir)
	if !ok {
		return nil // a writer may be at it: readers see each entry once meanwhile
	}
	archive, err := readRegular(filepath.Join(dir, ArchiveFile), 0)
	if err != nil {
		return err
	}
	archived := map[string][]byte{}
	eachLine(archive, func(line []byte) {
		if id := lineID(line); id != "" {
			archived[id] = bytes.TrimSuffix(line, []byte("\r"))
		}
	})
	return rewriteEntries(dir, st, func(id string, line []byte) bool {
		a, ok := archived[id]
		return ok && bytes.Equal(a, bytes.TrimSuffix(line, []byte("\r")))
	})
}

// rewriteEntries replaces entries.jsonl with its lines but those drop
// names, every other byte as it was; nothing when it drops none, or when
// the file changed since st. A writer that does not take the lock and
// appends while the new file is written makes the move give up (it checks
// just before the rename); bytes appended between that check and the
// rename, to the old file, are copied to the new one after it.
func rewriteEntries(dir string, st fs.FileInfo, drop func(id string, line []byte) bool) error {
	path := filepath.Join(dir, EntriesFile)
	old, err := os.Open(path)
	if err != nil {
		return err
	}
	defer old.Close()
	if ost, err := old.Stat(); err != nil || !os.SameFile(ost, st) || ost.Size() != st.Size() {
		return nil
	}
	data := make([]byte, st.Size())
	if n, err := old.ReadAt(data, 0); n != len(data) {
		return err
	}
	kept := make([]byte, 0, len(data))
	dropped := 0
	for rest := data; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = nil
		}
		body := bytes.TrimSuffix(line, []byte("\n"))
		if id := lineID(body); id != "" && drop(id, body) {
			dropped++
			continue
		}
		kept = append(kept, line...)
	}
	if dropped == 0 {
		return nil
	}
	unchanged := func() bool {
		now, err := os.Stat(path)
		ok := err == nil && now.Size() == st.Size() && now.ModTime().Equal(st.ModTime()) && os.SameFile(now, st)
		if ok {
			beforeEntriesRename()
		}
		return ok
	}
	replaced, err := replaceWith(dir, EntriesFile, kept, unchanged)
	if err != nil || !replaced {
		return err
	}
	return carryOver(old, path, st.Size())
}

// carryOver copies what another writer appended to the old entries.jsonl
// (between the last check and the rename: it wrote to the file it had
// open) to the new one, looking a few times over a moment.
func carryOver(old *os.File, path string, from int64) error {
	for range 3 {
		time.Sleep(20 * time.Millisecond)
		ost, err := old.Stat()
		if err != nil || ost.Size() <= from {
			continue
		}
		extra := make([]byte, ost.Size()-from)
		if _, err := old.ReadAt(extra, from); err != nil {
			return err
		}
		if err := appendRaw(path, extra); err != nil {
			return err
		}
		from = ost.Size()
	}
	return nil
}

func appendRaw(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|oNoFollow, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Sync()
}

// Move is the archive move (DECISIONS.md 9): the lines of entries.jsonl
// that compactions replaced and did not preserve go to archive.jsonl, byte
// for byte. It runs under the lock, only when entries.jsonl has been still
// for a while; it reports how many lines moved.
func Move(dir string) (int, error) {
	unlock, err := lock(dir)
	if err != nil {
		return 0, err
	}
	defer unlock()
	if err := recoverMove(dir); err != nil {
		return 0, err
	}
	st, ok := still(dir)
	if !ok {
		return 0, nil
	}
	return move(dir, st)
}

// move moves what may be archived, under the lock, entries.jsonl as st.
func move(dir string, st fs.FileInfo) (int, error) {
	s, err := Open(dir)
	if err != nil {
		return 0, err
	}
	movable := s.Movable()
	if len(movable) == 0 {
		return 0, nil
	}
	data, err := readRegular(filepath.Join(dir, EntriesFile), 0)
	if err != nil || int64(len(data)) != st.Size() {
		return 0, err
	}
	archive, err := readRegular(filepath.Join(dir, ArchiveFile), 0)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	out := append([]byte(nil), archive...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	n := 0
	eachLine(data, func(line []byte) {
		if id := lineID(line); id != "" && movable[id] {
			out = append(out, line...)
			out = append(out, '\n')
			n++
		}
	})
	if n == 0 {
		return 0, nil
	}
	if err := replaceFile(dir, ArchiveFile, out); err != nil {
		return 0, err
	}
	afterArchive()
	err = rewriteEntries(dir, st, func(id string, _ []byte) bool { return movable[id] })
	return n, err
}

// Movable are the ids in entries.jsonl that may be archived: in a
// compaction's range and not preserved by it.
func (s *Session) Movable() map[string]bool {
	var out map[string]bool
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Type != TypeCompaction {
			continue
		}
		preserved := map[string]bool{}
		for _, id := range stringList(jscan.Member(e.Raw, "preservedEntryIds")) {
			preserved[id] = true
		}
		for _, id := range stringList(jscan.Member(e.Raw, "entryIds")) {
			if j, ok := s.byID.get(id); ok && !preserved[id] && !s.Entries[j].Archived && s.Entries[j].Type != TypeCompaction {
				if out == nil {
					out = map[string]bool{}
				}
				out[id] = true
			}
		}
	}
	return out
}

// eachLine calls fn with each line of data that is not blank, without its
// line ending.
func eachLine(data []byte, fn func(line []byte)) {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if !isBlank(line) {
			fn(line)
		}
	}
}

// lineID is a line's id, "" when it has none or is not JSON.
func lineID(line []byte) string {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if !jscan.Valid(line) {
		return ""
	}
	id, _ := stringOf(jscan.Member(line, "id"))
	return id
}

// staleTemp is the name of a temporary file skein's replaceFile makes:
// <file>.tmp<pid>.<base 36 time>.
var staleTemp = regexp.MustCompile(`^(meta\.json|tree\.json|entries\.jsonl|archive\.jsonl)\.tmp[0-9]+\.[0-9a-z]+$`)

// removeStaleTemps removes the temporary files a killed skein write left
// (under the lock none is being written); nobody else's.
func removeStaleTemps(dir string) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, de := range des {
		if staleTemp.MatchString(de.Name()) && de.Type().IsRegular() {
			os.Remove(filepath.Join(dir, de.Name()))
		}
	}
}
