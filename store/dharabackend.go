package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
	"skein/store/dhara"
)

// dharaBackend is the second seed's format: a session is a folder
// (store/dhara).
type dharaBackend struct{}

func (dharaBackend) Format() Format { return FormatDhara }

// Claims a folder: pi's sessions are files, and every .jsonl path is pi's
// (or another file format's). One stat: the screens ask a record's
// backend by its format (ForFormat), never by its path.
func (dharaBackend) Claims(path string) bool {
	if strings.HasSuffix(path, ".jsonl") {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Supports every action but resuming: the real Dhara agent reads only its
// own one-file sessions (FORMATS.md §2).
func (dharaBackend) Supports(a Action) bool { return a != ActResume }

func (dharaBackend) Resume(path string) (string, []string) {
	return "dhara", []string{"--session", filepath.Base(path)}
}

func (dharaBackend) Open(path string) (*model.Session, error) {
	s, err := dhara.Open(path)
	if err != nil {
		return nil, dharaErr(err)
	}
	return dharaSession(path, s), nil
}

// OpenMapped is Open: a folder's files are read into memory, never mapped.
func (b dharaBackend) OpenMapped(path string) (*model.Session, error) { return b.Open(path) }

func (dharaBackend) OpenTail(path string, tail int64) (*model.Session, error) {
	s, err := dhara.OpenTail(path, tail)
	if err != nil {
		return nil, dharaErr(err)
	}
	return dharaSession(path, s), nil
}

func dharaSession(path string, s *dhara.Session) *model.Session {
	return s.Domain(model.SessionInfo{Path: path, Format: string(FormatDhara)})
}

// dharaErr gives a folder that is not a session the store's error for one.
func dharaErr(err error) error {
	var ns *dhara.NotSessionError
	if errors.As(err, &ns) {
		return &NotSession{Reason: ns.Reason}
	}
	return err
}

func (dharaBackend) ListInfo(path string, buf []byte) ([]byte, Info, error) {
	info, err := dharaInfo(path)
	return buf, info, err
}

func dharaInfo(path string) (Info, error) {
	fullReads.Add(1)
	mtime := 0.0
	if fi, err := os.Stat(path); err == nil {
		mtime = float64(fi.ModTime().UnixMilli())
	}
	info, err := dhara.ListInfo(path, mtime)
	return info, dharaErr(err)
}

// dharaFiles are the files whose stats make a Dhara session's change token.
var dharaFiles = [...]string{dhara.MetaFile, dhara.TreeFile, dhara.EntriesFile, dhara.ArchiveFile}

// dharaStamp is the four files' stats: present, size, mtime, inode,
// status-change time, device.
func dharaStamp(path string) (stamp []int64, settled bool) {
	settled = true
	for _, f := range dharaFiles {
		st, err := os.Stat(filepath.Join(path, f))
		if err != nil {
			stamp = append(stamp, -1, 0, 0, 0, 0)
			continue
		}
		in, ok := changeTime(st)
		if !ok || timeNowNs()-in.CtimeNs <= ctimeSlack {
			settled = false
		}
		stamp = append(stamp, st.Size(), st.ModTime().UnixNano(), int64(in.Ino), in.CtimeNs, int64(in.Dev))
	}
	return stamp, settled
}

const dharaStateVersion = 'D'

// ListCached is ListInfo through the kept state: the four files' stats and
// the record. A session whose files all stat as they did, changed longer
// ago than the clock's slack, is not read; any other is read whole (a
// session's files are replaced, not only appended to).
func (b dharaBackend) ListCached(path string, state []byte, buf []byte) ([]byte, Info, []byte, error) {
	stamp, settled := dharaStamp(path)
	if info, kept, ok := decodeDharaState(state); ok && settled && equalStamps(kept, stamp) {
		info.Path = path
		return buf, info, state, nil
	}
	info, err := dharaInfo(path)
	if err != nil {
		return buf, info, nil, err
	}
	if !settled {
		return buf, info, nil, nil // read again next time
	}
	return buf, info, encodeDharaState(info, stamp), nil
}

func equalStamps(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (dharaBackend) CachedInfo(path string, state []byte) (Info, bool) {
	info, _, ok := decodeDharaState(state)
	info.Path = path
	return info, ok
}

func encodeDharaState(in Info, stamp []int64) []byte {
	e := codec{b: []byte{dharaStateVersion}}
	e.int(int64(len(stamp)))
	for _, v := range stamp {
		e.int(v)
	}
	e.str(in.Format)
	e.str(in.ID)
	e.str(in.Cwd)
	e.str(in.Name)
	e.float(in.Created)
	e.float(in.Modified)
	e.int(int64(in.MessageCount))
	e.str(in.FirstMessage)
	e.int(int64(in.Entries))
	e.int(int64(in.Branches))
	e.str(in.Model)
	return e.b
}

func decodeDharaState(b []byte) (Info, []int64, bool) {
	var in Info
	if len(b) == 0 || b[0] != dharaStateVersion {
		return in, nil, false
	}
	d := codec{b: b[1:]}
	n := d.readInt()
	if n < 0 || n > 64 {
		return in, nil, false
	}
	stamp := make([]int64, n)
	for i := range stamp {
		stamp[i] = d.readInt()
	}
	in.Format, in.ID, in.Cwd, in.Name = d.readStr(), d.readStr(), d.readStr(), d.readStr()
	in.Created, in.Modified = d.readFloat(), d.readFloat()
	in.MessageCount = int(d.readInt())
	in.FirstMessage = d.readStr()
	in.Entries, in.Branches = int(d.readInt()), int(d.readInt())
	in.Model = d.readStr()
	return in, stamp, !d.bad && len(d.b) == 0
}

func (dharaBackend) Label(path, id, text string, _ ...WriteOption) (string, error) {
	id, err := dhara.Label(path, id, text)
	return id, dharaWriteErr(err)
}

func (dharaBackend) Rename(path, name string, _ ...WriteOption) (string, error) {
	return "", dharaWriteErr(dhara.Rename(path, name))
}

// Fork adds a branch to the session's tree.json: a Dhara fork stays in its
// session.
func (dharaBackend) Fork(path string, s *model.Session, at int) (Forked, error) {
	f, err := dhara.Fork(path, s.Entry(at).ID)
	if err != nil {
		return Forked{}, dharaWriteErr(err)
	}
	return Forked{Path: path, ID: s.Info.ID, Entries: f.Entries, Branch: f.Branch, ParentBranch: f.ParentBranch, SameSession: true}, nil
}

// Append adds what build makes as a Dhara entry after its parent (the
// active leaf when none): its type and fields, as they are.
func (dharaBackend) Append(path string, build func(*model.Session) (NewEntry, error), _ ...WriteOption) (string, error) {
	id, err := dhara.Append(path, func(now *dhara.Session) (string, string, []dhara.Field, error) {
		e, err := build(dharaSession(path, now))
		if err != nil {
			return "", "", nil, err
		}
		parent := ""
		if e.Parent != nil {
			parent = *e.Parent
		}
		var fields []dhara.Field
		for _, f := range e.Fields {
			fields = append(fields, dhara.Field{Key: f.Key, Value: f.Value})
		}
		return e.Type, parent, fields, nil
	})
	return id, dharaWriteErr(err)
}

// Compact appends a compaction entry over the plan's range, its tool
// results preserved, then moves what it replaced to the archive.
func (dharaBackend) Compact(path string, c model.Compaction, check func(*model.Session) (string, error), _ ...WriteOption) (string, error) {
	from := dhara.Of(c.From)
	if from == nil || c.Plan == nil {
		return "", ErrUnsupported
	}
	ids, preserved := from.Range(c.Plan)
	var usage []byte
	if u := c.Usage; u != nil {
		usage = usageJSON(u)
	}
	id, err := dhara.Compact(path, dhara.Compaction{Summary: c.Summary, EntryIDs: ids, PreservedIDs: preserved,
		TokensBefore: c.TokensBefore, ReadFiles: c.ReadFiles, Modified: c.ModifiedFiles, Usage: usage},
		func(now *dhara.Session) (string, error) { return check(dharaSession(path, now)) })
	return id, dharaWriteErr(err)
}

// usageJSON is a model's usage in pi's shape.
func usageJSON(u *model.Usage) []byte {
	n := func(b []byte, k string, v float64) []byte {
		b = jsjson.AppendString(b, k)
		b = append(b, ':')
		return jsjson.AppendNumber(b, v)
	}
	b := []byte{'{'}
	b = n(b, "input", u.Input)
	b = append(b, ',')
	b = n(b, "output", u.Output)
	b = append(b, ',')
	b = n(b, "cacheRead", u.CacheRead)
	b = append(b, ',')
	b = n(b, "cacheWrite", u.CacheWrite)
	b = append(b, ',')
	b = n(b, "totalTokens", u.Input+u.Output+u.CacheRead+u.CacheWrite)
	b = append(b, `,"cost":{`...)
	b = n(b, "total", u.Cost)
	return append(b, "}}"...)
}

// dharaWriteErr gives a refusal the store's type.
func dharaWriteErr(err error) error {
	var r *dhara.RefusedError
	if errors.As(err, &r) {
		return &RefusedError{Reason: r.Reason}
	}
	return dharaErr(err)
}

// SessionID is meta.json's id, else the folder's name (meta.json alone is
// read: the tree of a large session is 16 MB).
func (dharaBackend) SessionID(path string) (string, error) {
	if !dhara.IsSession(path) {
		return "", &NotSession{Reason: path + " is not a Dhara session folder"}
	}
	if id := dhara.MetaID(path); id != "" {
		return id, nil
	}
	return filepath.Base(path), nil
}

// Trashable is a session folder, not a link to one.
func (dharaBackend) Trashable(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.IsDir() || !dhara.IsSession(path) {
		return refuseTrash("%s is not a Dhara session folder (no %s, and no %s with an id and a formatVersion)", path, dhara.EntriesFile, dhara.MetaFile)
	}
	if ok, other := dhara.OnlySessionFiles(path); !ok {
		return refuseTrash("%s holds %s, which is no part of a Dhara session", path, other)
	}
	return nil
}

func (dharaBackend) SessionName(name string) string { return dhara.SessionName(name) }

func (dharaBackend) Check(path string) ([]model.Diagnostic, Format, error) {
	d, err := dhara.Check(path)
	return d, FormatDhara, dharaErr(err)
}

// SessionOf is the session a changed file belongs to, for live follow: a
// pi session is its file; a file of a Dhara session folder (meta.json,
// tree.json, entries.jsonl, archive.jsonl) is the folder's. false: the
// file is no session's.
func SessionOf(path string) (string, bool) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	for _, f := range dharaFiles {
		if base == f { // pi names its files <time>_<id>.jsonl
			if strings.HasPrefix(filepath.Base(dir), ".import-") {
				return "", false // an import being written
			}
			return dir, true
		}
	}
	if strings.HasPrefix(base, ".") || !strings.HasSuffix(base, ".jsonl") {
		return "", false
	}
	return path, true
}

// SessionFiles are the files whose changes live follow watches in a
// folder: the four of a Dhara session folder, else the .jsonl files in it.
func SessionFiles(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	dharaDir := isSessionDir(dir)
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() {
			continue
		}
		if dharaDir {
			for _, f := range dharaFiles {
				if e.Name() == f {
					out = append(out, p)
				}
			}
			continue
		}
		if _, ok := SessionOf(p); ok {
			out = append(out, p)
		}
	}
	return out
}

// timeNowNs is the clock the list's stamps are settled by (a test moves it on).
var timeNowNs = func() int64 { return time.Now().UnixNano() }

// DharaBuilt is a session in Dhara's model (dhara.Built).
type DharaBuilt = dhara.Built

// DharaModel is the session s, of any format, in Dhara's model: what an
// import into Dhara writes and the json export prints. extra are members
// for meta.json (raw JSON values).
func DharaModel(s *model.Session, now time.Time, extra map[string][]byte) DharaBuilt {
	// A Dhara session is its own files: the archive's entries, then the
	// working file's, as stored.
	if len(extra) == 0 {
		if b, ok := ownDhara(s); ok {
			return b
		}
	}
	var fields []dhara.Field
	for _, k := range sortedKeys(extra) {
		fields = append(fields, dhara.Field{Key: k, Value: extra[k]})
	}
	return dhara.FromSession(s, now, fields)
}

// ownDhara is a Dhara session's own files in Dhara's model: the archive's
// entries, then the working file's, as stored (false: s is not a Dhara
// session whose meta.json and tree.json are valid JSON).
func ownDhara(s *model.Session) (DharaBuilt, bool) {
	d := dhara.Of(s)
	if d == nil || !jscan.Valid(d.Meta.Raw) || !jscan.Valid(d.Tree.Raw) {
		return DharaBuilt{}, false
	}
	b := DharaBuilt{ID: d.Meta.ID, Meta: compactJSON(d.Meta.Raw), Tree: compactJSON(d.Tree.Raw)}
	for _, archived := range []bool{true, false} {
		for k := range d.Entries {
			if e := &d.Entries[k]; e.Archived == archived && jscan.Valid(e.Raw) {
				b.Entries = append(b.Entries, e.Raw)
			}
		}
	}
	return b, true
}

// WriteDharaJSON writes DharaModel(s, now, nil) as one JSON document (see
// dhara.Document): what the json export prints. A session made over into
// Dhara's model has its entries written as they are made, never all held.
func WriteDharaJSON(w io.Writer, s *model.Session, now time.Time) error {
	if b, ok := ownDhara(s); ok {
		// A Dhara session's lines are its own, already in memory.
		return dhara.Document(w, b.Meta, func(w io.Writer) error {
			for k, l := range b.Entries {
				sep := ",\n"
				if k == 0 {
					sep = "\n"
				}
				if _, err := io.WriteString(w, sep); err != nil {
					return err
				}
				if _, err := w.Write(l); err != nil {
					return err
				}
			}
			return nil
		}, func() []byte { return b.Tree })
	}
	return dhara.WriteJSON(w, s, now)
}

// WriteDhara writes a built session as a new folder in root (whole or not
// at all) and returns its path.
func WriteDhara(root string, b DharaBuilt) (string, error) { return dhara.WriteNew(root, b) }

// compactJSON is a valid JSON document without its insignificant space.
func compactJSON(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
