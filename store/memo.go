package store

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"skein/internal/cachefile"
	"skein/internal/stamp"
	"skein/model"
)

// A memo keeps, per session, bytes a command derived from it (stats keeps
// a session's totals), in the user's cache folder, so that a warm run
// opens no session that did not change. The bytes are the command's own:
// the memo never looks inside them. An entry is used while the session's
// files (StampFiles, and a format's Companions) stat as they did when it
// was made, and that was longer ago than the clock's slack, as the list's
// index trusts a file's stats (listByStamp); any other session is read
// again.
//
// The memo is a file of skein's own, like the list's index: a count, then
// each path, its files' stats, its format and its bytes, under a checksum;
// a missing, corrupt or older one is an empty memo. It is written whole to
// a temporary name, synced and renamed. Several skein processes may run
// at once: Save takes the memo's lock, reads the memo as the last process
// left it and adds this run's entries to it, so that one process does not
// throw away what another one learned (a lock that cannot be had within
// memoLockWait is gone without: the worst a lost entry costs is a read).

// memoMagic starts a memo file; its last byte is the version.
const memoMagic = "skein-memo\x00\x01"

// memoLockWait is how long Save waits for another process's Save: a
// process stopped with ^Z must not hold up every other one.
var memoLockWait = 2 * time.Second

// Memo is a per-session memo of derived bytes in a folder.
type Memo struct {
	path  string
	mu    sync.Mutex
	kept  map[string]memoEntry // as read from the file
	fresh map[string]memoEntry // made this run
}

type memoEntry struct {
	format string
	stat   []int64 // the session's files' stats, filesStamp's
	data   []byte
}

// MemoStamp is what a session's files were before it was read: Put
// keeps the bytes made from the session read after it, valid while the
// files stay so. A stamp taken before the read makes a file that changed
// meanwhile read again next time, never a memo of older bytes.
type MemoStamp struct {
	path    string
	format  string
	stat    []int64
	settled bool
}

// OpenMemo reads the memo named name in dir (a cache folder, CacheDir);
// one that is missing or cannot be read is empty.
func OpenMemo(dir, name string) *Memo {
	m := &Memo{path: filepath.Join(dir, name+".memo"), fresh: map[string]memoEntry{}}
	m.kept = readMemo(m.path)
	return m
}

func readMemo(path string) map[string]memoEntry {
	data, err := cachefile.ReadFile(path)
	if err != nil {
		return map[string]memoEntry{}
	}
	entries, ok := decodeMemo(data)
	if !ok {
		return map[string]memoEntry{}
	}
	return entries
}

// Get is the bytes kept for the session at path when its files stat as
// they did (ok false when not: OpenStamped reads it, and Put keeps new
// bytes). It reads no file's bytes: the kept entry's format says which
// files the session has.
func (m *Memo) Get(path string) (data []byte, ok bool) {
	if m == nil {
		return nil, false
	}
	m.mu.Lock()
	e, found := m.kept[path]
	m.mu.Unlock()
	if !found {
		return nil, false
	}
	st := memoStampOf(ForFormat(Format(e.format)), path)
	if st.settled && slices.Equal(st.stat, e.stat) {
		return e.data, true
	}
	return nil, false
}

// OpenStamped is Open, and the stamp of the session's files taken before
// it was read, for Put.
func OpenStamped(path string) (*model.Session, MemoStamp, error) {
	b := find(path)
	st := memoStampOf(b, path)
	s, err := b.Open(path)
	return s, st, err
}

func memoStampOf(b Backend, path string) MemoStamp {
	files := StampFiles(b, path)
	if c, ok := b.(Companions); ok {
		files = append(files, c.CompanionFiles(path)...)
	}
	stat, settled := filesStamp(files)
	return MemoStamp{path: path, format: string(b.Format()), stat: stat, settled: settled}
}

// Put keeps data for the session st was taken of, when its files had
// settled then (a session being written is read again next time).
func (m *Memo) Put(st MemoStamp, data []byte) {
	if m == nil || !st.settled || st.path == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.fresh[st.path] = memoEntry{format: st.format, stat: st.stat, data: data}
}

// Save writes the memo when this run made entries: those, and the ones
// the memo file holds now (another process may have saved since this one
// read it) whose sessions are still there. Errors leave the memo as it
// was: it is a cache.
func (m *Memo) Save() error {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.fresh) == 0 {
		return nil
	}
	if unlock, err := cachefile.Lock(m.path+".lock", memoLockWait); err == nil {
		defer unlock()
	}
	all := readMemo(m.path)
	for p := range all {
		if _, fresh := m.fresh[p]; !fresh {
			if _, err := os.Lstat(p); err != nil {
				delete(all, p)
			}
		}
	}
	for p, e := range m.fresh {
		all[p] = e
	}
	if err := cachefile.WriteFile(m.path, encodeMemo(all)); err != nil {
		return err
	}
	m.kept, m.fresh = all, map[string]memoEntry{}
	removeStaleTemps(m.path)
	return nil
}

// removeStaleTemps removes the temporary files a process that died while
// it wrote the memo at path left, once an hour old (a younger one may be
// another process's, being written).
func removeStaleTemps(path string) {
	olds, _ := filepath.Glob(path + ".tmp*")
	for _, f := range olds {
		if st, err := os.Lstat(f); err == nil && time.Since(st.ModTime()) > time.Hour {
			os.Remove(f)
		}
	}
}

func encodeMemo(entries map[string]memoEntry) []byte {
	paths := make([]string, 0, len(entries))
	for p := range entries {
		paths = append(paths, p)
	}
	slices.Sort(paths) // the same entries, the same bytes
	e := stamp.Codec{}
	e.Int(int64(len(paths)))
	for _, p := range paths {
		v := entries[p]
		e.Str(p)
		e.Str(v.format)
		e.Int(int64(len(v.stat)))
		for _, x := range v.stat {
			e.Int(x)
		}
		e.Str(string(v.data))
	}
	return seal(memoMagic, e.B)
}

func decodeMemo(data []byte) (map[string]memoEntry, bool) {
	d, n, ok := unseal(memoMagic, data)
	if !ok {
		return nil, false
	}
	entries := make(map[string]memoEntry, n)
	for range n {
		p, format := d.ReadStr(), d.ReadStr()
		k := d.ReadInt()
		if d.Bad || k < 0 || k > int64(len(d.B)) {
			return nil, false
		}
		stat := make([]int64, k)
		for i := range stat {
			stat[i] = d.ReadInt()
		}
		v := readBytes(&d)
		if d.Bad {
			return nil, false
		}
		entries[p] = memoEntry{format: format, stat: stat, data: v}
	}
	return entries, len(d.B) == 0
}

// readBytes is what Codec.Str wrote, as a part of d's bytes (not a copy:
// the entries' bytes share the memo file's, read once and never changed).
func readBytes(d *stamp.Codec) []byte {
	n, k := binary.Uvarint(d.B)
	if k <= 0 || n > uint64(len(d.B)-k) {
		d.Bad = true
		return nil
	}
	end := k + int(n)
	v := d.B[k:end:end]
	d.B = d.B[end:]
	return v
}

// Companions is a format whose session at path is read with files beside
// it that are not its StampFiles (Claude Code's sub-agents' logs): a memo
// of the session is valid while they stat as they did too. It reads no
// file's bytes.
type Companions interface {
	CompanionFiles(path string) []string
}
