package store

import (
	"os"
	"path/filepath"
	"slices"

	"skein/internal/stamp"
)

// What the store does for a format that lacks an optional interface: the
// list reads its session whole when its files' stats moved, and keeps
// their stats and the record (a Dhara folder's four files, which are
// replaced, not only appended to; a file another agent rewrites or appends
// to).

// listInfo is b's ListInfo, with what the store does around it: a part of
// another session is left out before it is read, and the read is counted.
func listInfo(b Backend, path string, buf []byte) ([]byte, Info, error) {
	if _, ok := b.(ListCacher); ok {
		return b.ListInfo(path, buf)
	}
	if p, ok := b.(Parter); ok {
		if err := p.PartOf(path); err != nil {
			return buf, Info{}, err
		}
	}
	fullReads.Add(1)
	return b.ListInfo(path, buf)
}

// listByStamp is ListCached for a format that is not a ListCacher: a
// session whose files all stat as they did, changed longer ago than the
// clock's slack, is not read; any other is read whole.
func listByStamp(b Backend, path string, state, buf []byte) ([]byte, Info, []byte, error) {
	// Asked first, whatever was kept: a sub-agent's log listed alone is a
	// part once its session is beside it.
	if p, ok := b.(Parter); ok {
		if err := p.PartOf(path); err != nil {
			return buf, Info{}, nil, err
		}
	}
	st, settled := filesStamp(StampFiles(b, path))
	if info, kept, ok := decodeStampState(state); ok && settled && slices.Equal(kept, st) {
		info.Path = path
		return buf, info, state, nil
	}
	fullReads.Add(1)
	buf, info, err := b.ListInfo(path, buf)
	if err != nil || !settled {
		return buf, info, nil, err // read again next time
	}
	return buf, info, encodeStampState(info, st), nil
}

// cachedInfo is the record a kept state gives without looking at the file.
func cachedInfo(b Backend, path string, state []byte) (Info, bool) {
	if c, ok := b.(ListCacher); ok {
		return c.CachedInfo(path, state)
	}
	info, _, ok := decodeStampState(state)
	info.Path = path
	return info, ok
}

// StampFiles are the files whose stats make the change token of the
// session at path: a session folder's files (Folders), a container's
// (Container), else the file.
func StampFiles(b Backend, path string) []string {
	if c, ok := b.(Container); ok {
		return c.ContainerFiles(path)
	}
	f, ok := b.(Folders)
	if !ok {
		return []string{path}
	}
	names := f.FolderFiles()
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join(path, n)
	}
	return out
}

// filesStamp is the files' stats: size, mtime, inode, status-change time,
// device (-1 and zeros for one that is not there); settled when every
// change is older than the clock's slack.
func filesStamp(files []string) (st []int64, settled bool) {
	settled = true
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			st = append(st, -1, 0, 0, 0, 0)
			continue
		}
		in, ok := stamp.ChangeTime(fi)
		if !ok || stamp.NowNs()-in.CtimeNs <= stamp.Slack {
			settled = false
		}
		st = append(st, fi.Size(), fi.ModTime().UnixNano(), int64(in.Ino), in.CtimeNs, int64(in.Dev))
	}
	return st, settled
}

// stampStateVersion starts a state listByStamp keeps. 'G' (after 'E'; 'F'
// is formatTag): the record's parent session is kept, and every record
// kept before, whose Claude Code branches counted each result of parallel
// calls as one, is read again. 'H': a Claude Code title is never its
// "[Request interrupted by user]" line, and its reply blocks written out
// of order are one reply.
const stampStateVersion = 'H'

func encodeStampState(in Info, st []int64) []byte {
	e := stamp.Codec{B: []byte{stampStateVersion}}
	e.Int(int64(len(st)))
	for _, v := range st {
		e.Int(v)
	}
	e.Str(in.Format)
	e.Str(in.ID)
	e.Str(in.Cwd)
	e.Str(in.Name)
	e.Str(in.ParentSession)
	e.Bools(in.HasParent)
	EncodeInfoContent(&e, &in)
	return e.B
}

// EncodeInfoContent writes what a list record says of a session's content
// (its times, counts, first message and model), as every list state keeps
// it: the store's of a file's stats, pi's of where its read stopped.
func EncodeInfoContent(e *stamp.Codec, in *Info) {
	e.Float(in.Created)
	e.Float(in.Modified)
	e.Int(int64(in.MessageCount))
	e.Str(in.FirstMessage)
	e.Int(int64(in.Entries))
	e.Int(int64(in.Branches))
	e.Str(in.Model)
	e.Str(in.ImportedFrom)
}

// DecodeInfoContent reads what EncodeInfoContent wrote into in (d.Bad
// says when it was not there).
func DecodeInfoContent(d *stamp.Codec, in *Info) {
	in.Created, in.Modified = d.ReadFloat(), d.ReadFloat()
	in.MessageCount = int(d.ReadInt())
	in.FirstMessage = d.ReadStr()
	in.Entries, in.Branches = int(d.ReadInt()), int(d.ReadInt())
	in.Model = d.ReadStr()
	in.ImportedFrom = d.ReadStr()
}

func decodeStampState(b []byte) (Info, []int64, bool) {
	var in Info
	if len(b) == 0 || b[0] != stampStateVersion {
		return in, nil, false
	}
	d := stamp.Codec{B: b[1:]}
	n := d.ReadInt()
	if n < 0 || n > 64 {
		return in, nil, false
	}
	st := make([]int64, n)
	for i := range st {
		st[i] = d.ReadInt()
	}
	in.Format, in.ID, in.Cwd, in.Name = d.ReadStr(), d.ReadStr(), d.ReadStr(), d.ReadStr()
	in.ParentSession, in.HasParent = d.ReadStr(), d.ReadBools(1)[0]
	DecodeInfoContent(&d, &in)
	return in, st, !d.Bad && len(d.B) == 0
}

// ModTimeMs is the modification time of the file at path in milliseconds,
// 0 when it cannot be looked at: what a format's list record falls back on.
func ModTimeMs(path string) float64 {
	if fi, err := os.Stat(path); err == nil {
		return float64(fi.ModTime().UnixMilli())
	}
	return 0
}

// IsPart reports whether the file at path is a part of another session (a
// Claude Code sub-agent's log beside its session, a Dhara 0.5 save's
// temporary file): the list leaves it out, and so do stats and search,
// which show it with its session.
func IsPart(path string) bool {
	base := filepath.Base(path)
	named := false
	for _, b := range Backends() {
		if p, ok := b.(Parter); ok && p.PartName(base) {
			named = true
		}
	}
	if !named {
		return false // a part is named so: no need to look inside
	}
	p, ok := find(path).(Parter)
	return ok && isPart(p.PartOf(path))
}

// Roots is a format that says where its agent keeps its sessions: the
// folders skein looks in first (Env.DefaultRoots).
type Roots interface {
	Roots(e Env) []string
}

// RefuseTrash is delete's refusal of a path.
func RefuseTrash(format string, a ...any) error { return refuseTrash(format, a...) }

// trashRefusal is Trashable for a format that is not a Trasher: skein only
// reads its sessions.
func trashRefusal(b Backend, path string) error {
	if t, ok := b.(Trasher); ok {
		return t.Trashable(path)
	}
	return refuseTrash("%s is a %s session, which skein only reads", path, b.Format())
}
