package dhara

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"skein/internal/jscan"
	"skein/internal/jsjson"
)

// RefusedError says why nothing was written.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return e.Reason }

// now is the clock of new entries; tests set it.
var now = time.Now

func isoNow() string { return now().UTC().Format("2006-01-02T15:04:05.000Z") }

// newID draws an id of the kind's prefix that the session does not use.
func newID(s *Session, kind string) string {
	for {
		var b [8]byte
		_, _ = rand.Read(b[:])
		id := kind + "_" + hex.EncodeToString(b[:])
		if _, taken := s.byID.get(id); !taken && !s.hasBranch(id) {
			return id
		}
	}
}

func (s *Session) hasBranch(id string) bool {
	for _, b := range s.Tree.Branches {
		if b.ID == id {
			return true
		}
	}
	return false
}

// Field is one member of a new entry; its value is raw JSON.
type Field struct {
	Key   string
	Value []byte
}

// entryLine is a new entry's line as the seed writes one: id, type, its
// fields, timestamp.
func entryLine(id, typ string, fields []Field, timestamp string) []byte {
	return appendEntryLine(make([]byte, 0, entryLineSize(id, typ, fields, timestamp)), id, typ, fields, timestamp)
}

// entryLineSize is room for entryLine's bytes: its strings' escapes
// aside, which id, type, keys and timestamp rarely have.
func entryLineSize(id, typ string, fields []Field, timestamp string) int {
	n := 48 + len(id) + len(typ) + len(timestamp)
	for _, f := range fields {
		n += len(f.Key) + len(f.Value) + 4
	}
	return n
}

// appendEntryLine appends entryLine's bytes to b.
func appendEntryLine(b []byte, id, typ string, fields []Field, timestamp string) []byte {
	b = append(b, `{"id":`...)
	b = jsjson.AppendString(b, id)
	b = append(b, `,"type":`...)
	b = jsjson.AppendString(b, typ)
	for _, f := range fields {
		if f.Value == nil {
			continue
		}
		b = append(b, ',')
		b = jsjson.AppendString(b, f.Key)
		b = append(b, ':')
		b = append(b, f.Value...)
	}
	b = append(b, `,"timestamp":`...)
	b = jsjson.AppendString(b, timestamp)
	return append(b, '}')
}

func jsonString(s string) []byte { return jsjson.AppendString(nil, s) }

func jsonStrings(list []string) []byte {
	b := []byte{'['}
	for k, s := range list {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsjson.AppendString(b, s)
	}
	return append(b, ']')
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

// update makes one write to the session folder dir under its lock: the
// session read as it is now, what build makes of it, then the new tree.json
// and meta.json made (so that a file that cannot take the change refuses it
// before anything is written), the entries appended (one write, synced),
// and tree.json and meta.json replaced, each atomically from the file as it
// is then (an agent may have changed it meanwhile), meta.json's updatedAt
// last.
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
		for _, f := range append(c.meta, Field{"updatedAt", jsonString(isoNow())}) {
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
	if len(c.lines) > 0 {
		if err := appendLines(filepath.Join(dir, EntriesFile), c.lines); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		name string
		make func([]byte) ([]byte, error)
	}{{TreeFile, newTree}, {MetaFile, newMeta}} {
		raw, err := readRegular(filepath.Join(dir, f.name), 0)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		data, err := f.make(raw)
		if err != nil {
			return err
		}
		if data == nil {
			continue
		}
		if err := replaceFile(dir, f.name, data); err != nil {
			return err
		}
	}
	if c.then != nil {
		return c.then()
	}
	return nil
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

// settleFor is how long a last line without its newline must not change
// before it counts as a crashed writer's (and a newline goes first);
// patience how long skein waits for a writer that keeps writing.
var settleFor, patience = 1500 * time.Millisecond, 15 * time.Second

// appendLines appends lines to a .jsonl file in one write and syncs it. A
// last line without its newline is another writer's, perhaps still being
// written: skein waits until the file has not changed for settleFor (then
// it was a crashed writer's, and a newline goes first, so that nothing is
// glued to it), and refuses when it keeps changing.
func appendLines(path string, lines [][]byte) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|oNoFollow, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	start := time.Now()
	var lastSize int64 = -1
	var quietSince time.Time
	var buf []byte
	for {
		st, err := f.Stat()
		if err != nil {
			return err
		}
		size := st.Size()
		buf = buf[:0]
		if size > 0 {
			last := make([]byte, 1)
			if _, err := f.ReadAt(last, size-1); err != nil {
				return err
			}
			if last[0] != '\n' {
				if size != lastSize {
					lastSize, quietSince = size, time.Now()
				}
				settled := time.Since(st.ModTime()) >= settleFor || time.Since(quietSince) >= settleFor
				switch {
				case !settled && time.Since(start) > patience:
					return &RefusedError{fmt.Sprintf("%s ends in a line another writer is still writing (it kept changing for %v); nothing was written", path, patience)}
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
		if _, err := f.Write(buf); err != nil {
			return err
		}
		return f.Sync()
	}
}

// replaceFile writes data to a temporary name in dir, syncs it, renames it
// over name and syncs the folder: a reader sees the old file or the new.
func replaceFile(dir, name string, data []byte) error {
	_, err := replaceWith(dir, name, data, nil)
	return err
}

// replaceWith is replaceFile with a check just before the rename (ok nil:
// none): when it fails, the temporary file goes, nothing is replaced, and
// replaced is false.
func replaceWith(dir, name string, data []byte, ok func() bool) (replaced bool, err error) {
	mode := fs.FileMode(0o600)
	if st, err := os.Stat(filepath.Join(dir, name)); err == nil {
		mode = st.Mode().Perm()
	}
	tmp := filepath.Join(dir, name+".tmp"+strconv.Itoa(os.Getpid())+"."+strconv.FormatInt(time.Now().UnixNano(), 36))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return false, err
	}
	err = f.Chmod(mode) // the file's mode, not the umask's
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && ok != nil && !ok() {
		os.Remove(tmp)
		return false, nil
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp)
		return false, err
	}
	return true, syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	_ = d.Sync() // some file systems cannot sync a folder; the rename stands
	return nil
}

// setMember sets one member of a JSON object, keeping the others and their
// order (a new member goes last); a nil value removes it.
func setMember(obj []byte, key string, val []byte) ([]byte, error) {
	out := []byte{'{'}
	found := false
	err := jscan.Members(bytes.TrimPrefix(obj, bom), func(k, v []byte) bool {
		if jscan.Key(k) == key {
			if found || val == nil {
				return true
			}
			found, v = true, val
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, k...)
		out = append(out, ':')
		out = append(out, v...)
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if !found && val != nil {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = jsjson.AppendString(out, key)
		out = append(out, ':')
		out = append(out, val...)
	}
	return append(out, '}'), nil
}

// indent is a JSON value two-space indented as the seed shows meta.json
// and tree.json: an object's members and an array of objects one per line,
// an array of strings and numbers (a branch's entryIds) on one line; with a
// final newline. A value that is not valid JSON is left as it is.
func indent(v []byte) []byte {
	v = bytes.TrimPrefix(v, bom)
	if !jscan.Valid(v) {
		return v
	}
	var b bytes.Buffer
	writeIndented(&b, bytes.TrimSpace(v), 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func writeIndented(b *bytes.Buffer, v []byte, depth int) {
	pad := func(d int) {
		b.WriteByte('\n')
		for range d {
			b.WriteString("  ")
		}
	}
	switch {
	case len(v) > 0 && v[0] == '{':
		b.WriteByte('{')
		n := 0
		jscan.Fields(v, func(k, val []byte) bool {
			if n > 0 {
				b.WriteByte(',')
			}
			pad(depth + 1)
			b.Write(k)
			b.WriteString(": ")
			writeIndented(b, val, depth+1)
			n++
			return true
		})
		if n > 0 {
			pad(depth)
		}
		b.WriteByte('}')
	case len(v) > 0 && v[0] == '[':
		flat := true
		jscan.Items(v, func(x []byte) bool {
			flat = len(x) > 0 && x[0] != '{' && x[0] != '['
			return flat
		})
		b.WriteByte('[')
		n := 0
		jscan.Items(v, func(x []byte) bool {
			if n > 0 {
				b.WriteByte(',')
				if flat {
					b.WriteByte(' ')
				}
			}
			if !flat {
				pad(depth + 1)
			}
			writeIndented(b, x, depth+1)
			n++
			return true
		})
		if !flat && n > 0 {
			pad(depth)
		}
		b.WriteByte(']')
	default:
		b.Write(v)
	}
}

// treeWith is tree.json with a branch added and ids appended to a branch,
// every other member as it was.
func treeWith(raw []byte, implicit, add *Branch, onBranch string, ids []string) ([]byte, error) {
	if raw == nil {
		raw = []byte(`{"branches":[]}`)
	}
	branches := jscan.Member(bytes.TrimPrefix(raw, bom), "branches")
	if branches == nil {
		branches = []byte("[]")
	}
	out := []byte{'['}
	n := 0
	err := jscan.Elements(branches, func(b []byte) bool {
		if len(ids) > 0 && jscan.IsString(jscan.Member(b, "id")) {
			if id, _ := stringOf(jscan.Member(b, "id")); id == onBranch {
				list := append(stringList(jscan.Member(b, "entryIds")), ids...)
				var err error
				if b, err = setMember(b, "entryIds", jsonStrings(list)); err != nil {
					return false
				}
			}
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
		n++
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("%s: branches: %w", TreeFile, err)
	}
	for _, add := range []*Branch{implicit, add} {
		if add == nil {
			continue
		}
		list := add.EntryIDs
		if add.ID == onBranch {
			list = append(list, ids...)
		}
		b := []byte(`{"id":`)
		b = jsjson.AppendString(b, add.ID)
		b = append(b, `,"parentBranchId":`...)
		if add.ParentBranchID == "" {
			b = append(b, "null"...)
		} else {
			b = jsjson.AppendString(b, add.ParentBranchID)
		}
		b = append(b, `,"entryIds":`...)
		b = append(b, jsonStrings(list)...)
		b = append(b, `,"createdAt":`...)
		b = jsjson.AppendString(b, add.CreatedAt)
		b = append(b, '}')
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
		n++
	}
	out = append(out, ']')
	tree, err := setMember(raw, "branches", out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", TreeFile, err)
	}
	if first := firstOf(implicit, add); jscan.Member(tree, "root") == nil && first != nil {
		tree, _ = setMember(tree, "root", jsonString(first.ID))
	}
	return indent(tree), nil
}

func firstOf(bs ...*Branch) *Branch {
	for _, b := range bs {
		if b != nil {
			return b
		}
	}
	return nil
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
	path := s.path(i)
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
		c.lines = [][]byte{entryLine(newEntry, TypeLabel, []Field{{"targetId", jsonString(id)}, {"label", jsonString(text)}}, isoNow())}
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
		return change{meta: []Field{{"title", v}}}, nil
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
			{"summary", jsonString(c.Summary)},
			{"entryIds", jsonStrings(c.EntryIDs)},
			{"preservedEntryIds", jsonStrings(c.PreservedIDs)},
			{"branchId", jsonString(ch.onBranch)},
			{"tokensBefore", []byte(jsjson.FormatNumber(c.TokensBefore))},
			{"readFiles", jsonStrings(c.ReadFiles)},
			{"modifiedFiles", jsonStrings(c.Modified)},
			{"usage", c.Usage},
		}
		ch.lines = [][]byte{entryLine(id, TypeCompaction, fields, isoNow())}
		ch.ids = []string{id}
		if _, wasStill := still(dir); wasStill {
			ch.then = func() error {
				st, err := os.Stat(filepath.Join(dir, EntriesFile))
				if err != nil {
					return nil
				}
				_, _ = move(dir, st) // the compaction stands; the next write moves
				return nil
			}
		}
		return ch, nil
	})
	return id, err
}
