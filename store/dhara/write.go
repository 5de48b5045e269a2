package dhara

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"skein/internal/jsjson"
	"skein/internal/randid"
)

// RefusedError says why nothing was written.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return e.Reason }

// now is the clock of new entries; tests set it.
var now = time.Now

func isoNow() string { return now().UTC().Format("2006-01-02T15:04:05.000Z") }

// newID draws an id of the kind's prefix that the session does not use.
func newID(s *Session, kind string) string {
	return randid.Fresh(kind+"_", 8, func(id string) bool {
		_, taken := s.byID.get(id)
		return taken || s.hasBranch(id)
	})
}

func (s *Session) hasBranch(id string) bool {
	for _, b := range s.Tree.Branches {
		if b.ID == id {
			return true
		}
	}
	return false
}

// change is what one write does: entries to append, the branch they go on
// (or a new branch), meta.json's members to set.
type change struct {
	lines [][]byte
	ids   []string
	// onBranch is the branch the ids are appended to; newBranch, when set,
	// is added to the tree first (a fork, or an entry under a non-tip).
	onBranch  string
	newBranch *Branch
	implicit  *Branch // the chain of a session without a tree, written first
	meta      []Field
	// then runs last, under the lock (the archive move after a compaction).
	then func() error
}

// update makes one write to the session folder dir under its lock: first
// what an earlier write left to do (an interrupted archive move, a move a
// compaction left pending), then the session read as it is now, what build
// makes of it, and the change written (commit).
func update(dir string, build func(s *Session) (change, error)) (err error) {
	if !IsSession(dir) {
		return &RefusedError{dir + " is not a Dhara session folder (no " + EntriesFile + ", and no " + MetaFile + " with an id and a formatVersion); nothing was written"}
	}
	unlock, err := lock(dir)
	if err != nil {
		return err
	}
	defer unlock()
	if err := recoverMove(dir); err != nil {
		return err
	}
	s, err := Open(dir)
	if err != nil {
		return err
	}
	if s, err = finishMove(dir, s); err != nil {
		return err
	}
	c, err := build(s)
	if err != nil {
		return err
	}
	if len(s.Tree.Branches) == 0 && len(s.Entries) > 0 && (c.newBranch != nil || len(c.ids) > 0) {
		// No tree: the entries were one chain; it is written down first, so
		// that a new branch does not leave the rest out.
		c.implicit = s.implicitMain()
		if c.onBranch == "" {
			c.onBranch = c.implicit.ID
		}
		if c.newBranch != nil && c.newBranch.ParentBranchID == "" {
			c.newBranch.ParentBranchID = c.implicit.ID
		}
	}
	newTree := func(raw []byte) ([]byte, error) {
		if c.newBranch == nil && len(c.ids) == 0 {
			return nil, nil
		}
		return treeWith(raw, c.implicit, c.newBranch, c.onBranch, c.ids)
	}
	newMeta := func(raw []byte) ([]byte, error) {
		if raw == nil {
			raw = s.freshMeta(dir)
		}
		var err error
		for _, f := range append(c.meta, Field{Key: "updatedAt", Value: jsonString(isoNow())}) {
			if raw, err = setMember(raw, f.Key, f.Value); err != nil {
				return nil, fmt.Errorf("%s: %w", MetaFile, err)
			}
		}
		return indent(raw), nil
	}
	if _, err := newTree(s.Tree.Raw); err != nil {
		return &RefusedError{err.Error() + "; nothing was written"}
	}
	if _, err := newMeta(s.Meta.Raw); err != nil {
		return &RefusedError{err.Error() + "; nothing was written"}
	}
	if err := commit(dir, c.lines, newMeta, newTree); err != nil {
		return err
	}
	if c.then != nil {
		return c.then()
	}
	return nil
}

// commit writes a change in the order that makes any step's failure leave
// the folder as it was (DECISIONS.md 12): meta.json's and tree.json's new
// bytes, made from the files as they are now (an agent may have changed
// one), go to temporary files, synced; the entries are appended (whole, or
// truncated back); meta.json is renamed into place, then tree.json, whose
// rename is the write: every step before it is taken back when a later
// one fails. meta.json goes first because a newer updatedAt alone is a
// session doctor calls clean, and tree.json naming an entry newer than
// updatedAt is not.
func commit(dir string, lines [][]byte, newMeta, newTree func([]byte) ([]byte, error)) error {
	var reps []*replacement
	defer func() {
		for _, r := range reps {
			r.cleanup()
		}
	}()
	for _, f := range []struct {
		name string
		make func([]byte) ([]byte, error)
	}{{MetaFile, newMeta}, {TreeFile, newTree}} {
		raw, err := readRegular(filepath.Join(dir, f.name), 0)
		existed := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		data, err := f.make(raw)
		if err != nil {
			return &RefusedError{err.Error() + "; nothing was written"}
		}
		if data == nil {
			continue
		}
		r, err := prepare(dir, f.name, raw, existed, data)
		if err != nil {
			return err
		}
		reps = append(reps, r)
	}
	if len(reps) > 0 {
		reps[len(reps)-1].final = true
	}
	var app *appended
	if len(lines) > 0 {
		var closeEntries func()
		var err error
		app, closeEntries, err = appendLines(filepath.Join(dir, EntriesFile), lines)
		if err != nil {
			return err
		}
		defer closeEntries()
	}
	undo := func(err error) error {
		if uerr := app.undo(); uerr != nil {
			err = fmt.Errorf("%w; %s keeps the new entry: %v", err, EntriesFile, uerr)
		}
		for k := len(reps) - 1; k >= 0; k-- {
			reps[k].undo()
		}
		return err
	}
	for k, r := range reps {
		if err := r.commit(); err != nil {
			return undo(err)
		}
		if k < len(reps)-1 {
			// The names in order: tree.json's rename is not on the disk
			// before meta.json's.
			if err := syncDir(dir); err != nil {
				return undo(err)
			}
		}
	}
	// The write is done; a folder that could not be synced now keeps it
	// in the cache, and a failure here would have the write made again.
	_ = syncDir(dir)
	return nil
}

// settleFor is how long a last line without its newline must not change
// before it counts as a crashed writer's (and a newline goes first);
// patience how long skein waits for a writer that keeps writing.
var settleFor, patience = 1500 * time.Millisecond, 15 * time.Second

// appendLines appends lines to a .jsonl file in one write, synced, whole
// or not at all (appendWhole), and returns what takes them back and what
// closes the file. A last line without its newline is another writer's,
// perhaps still being written: skein waits until the file has not changed
// for settleFor (then it was a crashed writer's, and a newline goes first,
// so that nothing is glued to it), and refuses when it keeps changing.
func appendLines(path string, lines [][]byte) (*appended, func(), error) {
	_, statErr := os.Lstat(path)
	f, err := fsys.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|oNoFollow, 0o600)
	if err != nil {
		return nil, nil, err
	}
	closeFile := func() {
		f.Close()
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		// A file this write made goes again with the write.
		closeFile = func() {
			if st, err := f.Stat(); err == nil && st.Size() == 0 {
				fsys.Remove(path)
			}
			f.Close()
		}
	}
	start := time.Now()
	var lastSize int64 = -1
	var quietSince time.Time
	var buf []byte
	for {
		st, err := f.Stat()
		if err != nil {
			closeFile()
			return nil, nil, err
		}
		size := st.Size()
		buf = buf[:0]
		if size > 0 {
			last := make([]byte, 1)
			if _, err := f.ReadAt(last, size-1); err != nil {
				closeFile()
				return nil, nil, err
			}
			if last[0] != '\n' {
				if size != lastSize {
					lastSize, quietSince = size, time.Now()
				}
				settled := time.Since(st.ModTime()) >= settleFor || time.Since(quietSince) >= settleFor
				switch {
				case !settled && time.Since(start) > patience:
					closeFile()
					return nil, nil, &RefusedError{fmt.Sprintf("%s ends in a line another writer is still writing (it kept changing for %v); nothing was written", path, patience)}
				case !settled:
					time.Sleep(50 * time.Millisecond)
					continue
				}
				buf = append(buf, '\n')
			}
		}
		for _, l := range lines {
			buf = append(buf, l...)
			buf = append(buf, '\n')
		}
		// The file as it was decided on: a writer that went on meanwhile
		// means deciding again.
		if now, err := f.Stat(); err != nil || now.Size() != size {
			continue
		}
		a, err := appendWhole(f, size, buf)
		if err != nil {
			closeFile()
			return nil, nil, err
		}
		return a, closeFile, nil
	}
}

// implicitMain is the one chain a session without a tree is, as a branch.
func (s *Session) implicitMain() *Branch {
	b := &Branch{ID: "branch_main", CreatedAt: isoNow()}
	if t := s.Meta.CreatedAt; t != "" {
		b.CreatedAt = t
	}
	for i := range s.Entries {
		if s.Entries[i].ID != "" {
			b.EntryIDs = append(b.EntryIDs, s.Entries[i].ID)
		}
	}
	return b
}

// freshMeta is the meta.json a session without one gets on its first
// write: what the schema asks for.
func (s *Session) freshMeta(dir string) []byte {
	m := []byte(`{"id":`)
	m = jsjson.AppendString(m, filepath.Base(dir))
	created := isoNow()
	if len(s.Entries) > 0 && s.Entries[0].Timestamp != "" {
		created = s.Entries[0].Timestamp
	}
	m = append(m, `,"createdAt":`...)
	m = jsjson.AppendString(m, created)
	return append(m, `,"formatVersion":"0.1.0"}`...)
}

// branchAt is the branch a new entry after entry i goes on: the active
// branch when it ends at i, else another that does; or, when no branch
// ends at i, a new one from the branch holding i, which the change adds.
func (s *Session) branchAt(i int, c *change) {
	if i < 0 {
		if s.active >= 0 {
			c.onBranch = s.Tree.Branches[s.active].ID
			return
		}
		c.newBranch = &Branch{ID: "branch_main", CreatedAt: isoNow()}
		c.onBranch = c.newBranch.ID
		return
	}
	tips := s.tips[i]
	if len(tips) > 0 {
		c.onBranch = tips[0]
		if a := s.ActiveBranch(); a != nil {
			for _, t := range tips {
				if t == a.ID {
					c.onBranch = t
				}
			}
		}
		return
	}
	c.newBranch = s.forkBranch(i)
	c.onBranch = c.newBranch.ID
}

// forkBranch is a new branch whose entries are the path to entry i, its
// parent the branch that holds i (the active one when it does).
func (s *Session) forkBranch(i int) *Branch {
	path := s.Path(i)
	ids := make([]string, len(path))
	for k, j := range path {
		ids[k] = s.Entries[j].ID
	}
	parent := ""
	holds := func(b *Branch) bool {
		for _, id := range b.EntryIDs {
			if id == s.Entries[i].ID {
				return true
			}
		}
		return false
	}
	if a := s.ActiveBranch(); a != nil && holds(a) {
		parent = a.ID
	} else {
		for k := range s.Tree.Branches {
			if holds(&s.Tree.Branches[k]) {
				parent = s.Tree.Branches[k].ID
				break
			}
		}
	}
	return &Branch{ID: newID(s, "branch"), ParentBranchID: parent, EntryIDs: ids, CreatedAt: isoNow()}
}

// Label appends a label entry setting (or, with "", clearing) entry id's
// label, on the active branch; it returns the new entry's id.
func Label(dir, id, text string) (string, error) {
	var newEntry string
	err := update(dir, func(s *Session) (change, error) {
		if _, ok := s.byID.get(id); !ok {
			return change{}, &RefusedError{fmt.Sprintf("no entry %s in %s; nothing was written", id, dir)}
		}
		var c change
		s.branchAt(s.leaf, &c)
		newEntry = newID(s, "label")
		c.lines = [][]byte{entryLine(newEntry, TypeLabel, []Field{{Key: "targetId", Value: jsonString(id)}, {Key: "label", Value: jsonString(text)}}, isoNow())}
		c.ids = []string{newEntry}
		return c, nil
	})
	return newEntry, err
}

// SessionName is a title as meta.json stores it: its lines joined, trimmed.
func SessionName(name string) string {
	return strings.TrimSpace(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(name))
}

// Rename sets meta.json's title ("" removes it).
func Rename(dir, name string) error {
	return update(dir, func(s *Session) (change, error) {
		var v []byte
		if name = SessionName(name); name != "" {
			v = jsonString(name)
		}
		return change{meta: []Field{{Key: "title", Value: v}}}, nil
	})
}

// Forked is a fork written: a new branch of the same session.
type Forked struct {
	Branch, ParentBranch string
	Entries              int // the entries the branch shares with its parent
}

// Fork adds a branch to tree.json whose entries are the path to the entry
// id, its parent the branch that holds it; no entry is written, and the new
// branch is the active one.
func Fork(dir, id string) (Forked, error) {
	var b *Branch
	err := update(dir, func(s *Session) (change, error) {
		i, ok := s.byID.get(id)
		if !ok {
			return change{}, &RefusedError{fmt.Sprintf("no entry %s in %s; nothing was written", id, dir)}
		}
		b = s.forkBranch(i)
		return change{newBranch: b}, nil
	})
	if err != nil {
		return Forked{}, err
	}
	return Forked{Branch: b.ID, ParentBranch: b.ParentBranchID, Entries: len(b.EntryIDs)}, nil
}

// Append adds the entry build makes of the session as it is under the
// lock (its type, the id of the entry it goes after, "" for the active
// leaf, and its fields), on the branch that ends there or a new one; build
// may refuse.
func Append(dir string, build func(s *Session) (typ, parent string, fields []Field, err error)) (string, error) {
	var id string
	err := update(dir, func(s *Session) (change, error) {
		typ, parent, fields, err := build(s)
		if err != nil {
			return change{}, err
		}
		if typ == "" {
			return change{}, &RefusedError{"an entry needs a type; nothing was written"}
		}
		at := s.leaf
		if parent != "" {
			var ok bool
			if at, ok = s.byID.get(parent); !ok {
				return change{}, &RefusedError{fmt.Sprintf("no entry %s in %s; nothing was written", parent, dir)}
			}
		}
		var c change
		s.branchAt(at, &c)
		id = newID(s, kindPrefix(typ))
		c.lines = [][]byte{entryLine(id, typ, fields, isoNow())}
		c.ids = []string{id}
		return c, nil
	})
	return id, err
}

func kindPrefix(typ string) string {
	switch typ {
	case TypeCompaction:
		return "cmp"
	case TypeMessage:
		return "msg"
	case TypeToolCall:
		return "call"
	case TypeToolResult:
		return "result"
	}
	return typ
}

// Compaction is a compaction entry to write (DECISIONS.md 8).
type Compaction struct {
	Summary                string
	EntryIDs, PreservedIDs []string
	TokensBefore           float64
	ReadFiles, Modified    []string
	Usage                  []byte // raw JSON, nil for none
}

// Compact appends a compaction after the entry check names (check sees
// the session under the lock and may refuse), on the branch that ends
// there, and then, when entries.jsonl had been still, the archive move.
func Compact(dir string, c Compaction, check func(s *Session) (parent string, err error)) (string, error) {
	var id string
	err := update(dir, func(s *Session) (change, error) {
		parent, err := check(s)
		if err != nil {
			return change{}, err
		}
		at, ok := s.byID.get(parent)
		if !ok {
			return change{}, &RefusedError{fmt.Sprintf("no entry %s in %s; nothing was written", parent, dir)}
		}
		for _, x := range append(append([]string(nil), c.EntryIDs...), c.PreservedIDs...) {
			if _, ok := s.byID.get(x); !ok {
				return change{}, &RefusedError{fmt.Sprintf("the entry %s to compact is gone from %s; nothing was written", x, dir)}
			}
		}
		var ch change
		s.branchAt(at, &ch)
		id = newID(s, "cmp")
		fields := []Field{
			{Key: "summary", Value: jsonString(c.Summary)},
			{Key: "entryIds", Value: jsonStrings(c.EntryIDs)},
			{Key: "preservedEntryIds", Value: jsonStrings(c.PreservedIDs)},
			{Key: "branchId", Value: jsonString(ch.onBranch)},
			{Key: "tokensBefore", Value: []byte(jsjson.FormatNumber(c.TokensBefore))},
			{Key: "readFiles", Value: jsonStrings(c.ReadFiles)},
			{Key: "modifiedFiles", Value: jsonStrings(c.Modified)},
			{Key: "usage", Value: c.Usage},
		}
		ch.lines = [][]byte{entryLine(id, TypeCompaction, fields, isoNow())}
		ch.ids = []string{id}
		if _, wasStill := still(dir); wasStill {
			ch.then = func() error {
				// The compaction stands, whatever the move does: a move
				// that fails takes itself back, and the next write makes it.
				st, err := os.Stat(filepath.Join(dir, EntriesFile))
				if err != nil {
					return nil
				}
				if s, err := Open(dir); err == nil {
					_, _ = move(dir, st, s)
				}
				return nil
			}
		}
		return ch, nil
	})
	return id, err
}
