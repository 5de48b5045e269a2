package dhara

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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
// the file changed since st.
func rewriteEntries(dir string, st fs.FileInfo, drop func(id string, line []byte) bool) error {
	w, err := prepareEntries(dir, st, drop)
	if err != nil || w == nil {
		return err
	}
	defer w.close()
	_, err = w.commit()
	return err
}

// entriesRewrite is entries.jsonl's new bytes, ready in a temporary file:
// its lines but those dropped.
type entriesRewrite struct {
	dir     string
	st      fs.FileInfo
	old     *os.File // the file as st, open: what a writer appends to it after the rename is carried over
	data    []byte   // its bytes
	dropped [][]byte // the lines dropped, in order, without their newline
	rep     *replacement
}

// prepareEntries writes entries.jsonl's lines but those drop names to a
// temporary file, synced; nil when it drops none or the file changed
// since st.
func prepareEntries(dir string, st fs.FileInfo, drop func(id string, line []byte) bool) (*entriesRewrite, error) {
	path := filepath.Join(dir, EntriesFile)
	old, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			old.Close()
		}
	}()
	if ost, err := old.Stat(); err != nil || !os.SameFile(ost, st) || ost.Size() != st.Size() {
		return nil, nil
	}
	data := make([]byte, st.Size())
	if n, err := old.ReadAt(data, 0); n != len(data) {
		return nil, err
	}
	w := &entriesRewrite{dir: dir, st: st, old: old, data: data}
	kept := make([]byte, 0, len(data))
	for rest := data; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = nil
		}
		body := bytes.TrimSuffix(line, []byte("\n"))
		if id := lineID(body); id != "" && drop(id, body) {
			w.dropped = append(w.dropped, body)
			continue
		}
		kept = append(kept, line...)
	}
	if len(w.dropped) == 0 {
		return nil, nil
	}
	if w.rep, err = prepare(dir, EntriesFile, data, true, kept); err != nil {
		return nil, err
	}
	w.rep.final = true // its rename is the move's last step
	ok = true
	return w, nil
}

// commit renames the new entries.jsonl into place, unless the file
// changed since st: a writer that does not take the lock and appends
// while the move is made makes it give up (it checks just before the
// rename); bytes appended between that check and the rename, to the old
// file, are copied to the new one after it. replaced says whether the
// rename was made.
func (w *entriesRewrite) commit() (replaced bool, err error) {
	path := filepath.Join(w.dir, EntriesFile)
	now, err := os.Stat(path)
	if err != nil || now.Size() != w.st.Size() || !now.ModTime().Equal(w.st.ModTime()) || !os.SameFile(now, w.st) {
		return false, nil
	}
	beforeEntriesRename()
	if err := w.rep.commit(); err != nil {
		return false, err
	}
	_ = syncDir(w.dir) // the rename stands: the move is made
	return true, carryOver(w.old, path, w.st.Size())
}

func (w *entriesRewrite) close() {
	w.rep.cleanup()
	w.old.Close()
}

// carryWait is how long carryOver waits between its looks.
var carryWait = 20 * time.Millisecond

// carryOver copies what another writer appended to the old entries.jsonl
// (between the last check and the rename: it wrote to the file it had
// open) to the new one, looking a few times over a moment.
func carryOver(old *os.File, path string, from int64) error {
	for range 3 {
		time.Sleep(carryWait)
		ost, err := old.Stat()
		if err != nil || ost.Size() <= from {
			continue
		}
		extra := make([]byte, ost.Size()-from)
		if _, err := old.ReadAt(extra, from); err != nil {
			return keepCarried(path, nil, err)
		}
		if err := appendRaw(path, extra); err != nil {
			return keepCarried(path, extra, err)
		}
		from = ost.Size()
	}
	return nil
}

// CarriedPrefix starts the name of a file holding lines another writer
// appended to entries.jsonl during an archive move that could not be
// copied to the new entries.jsonl: doctor names it, so that nothing is
// lost without a word.
const CarriedPrefix = EntriesFile + ".carried-"

// keepCarried keeps the bytes carryOver could not copy (data; nil when
// they could not even be read) in a file of their own beside entries.jsonl,
// and says so.
func keepCarried(path string, data []byte, cause error) error {
	if data == nil {
		return fmt.Errorf("lines another writer appended to %s during the archive move could not be read from the old file: %w", path, cause)
	}
	kept := path[:len(path)-len(EntriesFile)] + CarriedPrefix + strconv.FormatInt(time.Now().UnixNano(), 10)
	if err := writeSynced(kept, data); err != nil {
		return fmt.Errorf("lines another writer appended to %s during the archive move could not be copied to it (%v) nor kept apart: %w", path, cause, err)
	}
	return fmt.Errorf("lines another writer appended to %s during the archive move could not be copied to it (%v): they are kept in %s", path, cause, kept)
}

// appendRaw appends data to the file at path, whole or not at all.
func appendRaw(path string, data []byte) error {
	f, err := fsys.OpenFile(path, os.O_RDWR|os.O_APPEND|oNoFollow, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	_, err = appendWhole(f, st.Size(), data)
	return err
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
	s, err := Open(dir)
	if err != nil {
		return 0, err
	}
	return move(dir, st, s)
}

// finishMove makes the archive move a compaction left to do (it was
// killed before it, entries.jsonl was not still then, or the move failed)
// at the start of a write, under the lock, when entries.jsonl has been
// still; it returns the session as it is then. The move is the earlier
// write's: when it fails, it has taken itself back, and this write goes on.
func finishMove(dir string, s *Session) (*Session, error) {
	if len(s.Movable()) == 0 {
		return s, nil
	}
	st, ok := still(dir)
	if !ok {
		return s, nil
	}
	n, err := move(dir, st, s)
	if n == 0 && err == nil {
		return s, nil
	}
	now, oerr := Open(dir)
	if n > 0 && err != nil {
		// The move stands, but another writer's lines were not carried
		// over: this write stops and says where they are.
		return now, err
	}
	return now, oerr
}

// move moves what may be archived of the session s, under the lock,
// entries.jsonl as st. Both new files are written to temporary files
// first, synced; archive.jsonl is renamed into place, then entries.jsonl.
// A failure before the second rename puts the old archive back, so that
// no line is in both files; a kill there leaves the copies readers drop
// (DECISIONS.md 9).
func move(dir string, st fs.FileInfo, s *Session) (int, error) {
	movable := s.Movable()
	if len(movable) == 0 {
		return 0, nil
	}
	w, err := prepareEntries(dir, st, func(id string, _ []byte) bool { return movable[id] })
	if err != nil || w == nil {
		return 0, err
	}
	defer w.close()
	archive, err := readRegular(filepath.Join(dir, ArchiveFile), 0)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	out := append([]byte(nil), archive...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	for _, line := range w.dropped {
		out = append(out, line...)
		out = append(out, '\n')
	}
	a, err := prepare(dir, ArchiveFile, archive, existed, out)
	if err != nil {
		return 0, err
	}
	defer a.cleanup()
	if err := a.commit(); err != nil {
		return 0, err
	}
	if err := syncDir(dir); err != nil {
		a.undo()
		return 0, err
	}
	afterArchive()
	replaced, err := w.commit()
	if !replaced {
		a.undo()
		return 0, err
	}
	return len(w.dropped), err
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
		var line []byte
		line, data, _ = bytes.Cut(data, nl)
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
	id, _ := jscan.String(jscan.Member(line, "id"))
	return id
}

// staleTemp is the name of a temporary file skein's writes make (tempName):
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
