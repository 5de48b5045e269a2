package store

import (
	"os"
	"path/filepath"
	"strings"

	"skein/model"
	"skein/store/claude"
)

// readOnly is the backend of a format skein reads and never writes (the
// real Dhara 0.5 agent's files, Codex's and Claude Code's logs, which their
// agents rewrite or append to without a lock): every write answers
// *UnsupportedError, and the UI offers to import the session instead.
type readOnly struct {
	format Format
	agent  string // the agent's name, as the screens say it
	claims func(path string) bool
	open   func(path string) (*model.Session, error)
	// info is the list record of an opened session; mtimeMs the file's.
	info func(s *model.Session, path string, mtimeMs float64) Info
	// listable refuses (a *NotSession) a file the format's agent does not
	// list (a temporary file); nil: all are.
	listable func(path string) error
	// resume is the agent's command for the session; nil: none.
	resume func(path string) (string, []string)
	// id is the session's id, which a REF names.
	id func(s *model.Session, path string) string
}

func (b readOnly) Format() Format         { return b.format }
func (b readOnly) Claims(p string) bool   { return b.claims(p) }
func (b readOnly) Supports(a Action) bool { return a == ActResume && b.resume != nil }
func (b readOnly) Resume(path string) (string, []string) {
	if b.resume == nil {
		return "", nil
	}
	return b.resume(path)
}
func (b readOnly) Open(path string) (*model.Session, error)       { return b.open(path) }
func (b readOnly) OpenMapped(path string) (*model.Session, error) { return b.open(path) }
func (b readOnly) OpenTail(path string, _ int64) (*model.Session, error) {
	return b.open(path)
}

func (b readOnly) ListInfo(path string, buf []byte) ([]byte, Info, error) {
	if b.listable != nil {
		if err := b.listable(path); err != nil {
			return buf, Info{}, err
		}
	}
	fullReads.Add(1)
	s, err := b.open(path)
	if err != nil {
		return buf, Info{}, err
	}
	mtime := 0.0
	if fi, err := os.Stat(path); err == nil {
		mtime = float64(fi.ModTime().UnixMilli())
	}
	return buf, b.info(s, path, mtime), nil
}

// ListCached: a file whose stat is as it was (changed longer ago than the
// clock's slack) is not read; any other is read whole.
func (b readOnly) ListCached(path string, state []byte, buf []byte) ([]byte, Info, []byte, error) {
	// Asked first, whatever was kept: a sub-agent's log listed alone is a
	// part once its session is beside it.
	if b.listable != nil {
		if err := b.listable(path); err != nil {
			return buf, Info{}, nil, err
		}
	}
	stamp, settled := statStamp(path)
	if info, kept, ok := decodeDharaState(state); ok && settled && equalStamps(kept, stamp) {
		info.Path = path
		return buf, info, state, nil
	}
	buf, info, err := b.ListInfo(path, buf)
	if err != nil || !settled {
		return buf, info, nil, err
	}
	return buf, info, encodeDharaState(info, stamp), nil
}

func (b readOnly) CachedInfo(path string, state []byte) (Info, bool) {
	info, _, ok := decodeDharaState(state)
	info.Path = path
	return info, ok
}

func (b readOnly) Label(string, string, string, ...WriteOption) (string, error) {
	return "", &UnsupportedError{b.format, ActLabel}
}
func (b readOnly) Rename(string, string, ...WriteOption) (string, error) {
	return "", &UnsupportedError{b.format, ActRename}
}
func (b readOnly) Fork(string, *model.Session, int) (Forked, error) {
	return Forked{}, &UnsupportedError{b.format, ActFork}
}
func (b readOnly) Append(string, func(*model.Session) (NewEntry, error), ...WriteOption) (string, error) {
	return "", ErrUnsupported
}
func (b readOnly) Compact(string, model.Compaction, func(*model.Session) (string, error), ...WriteOption) (string, error) {
	return "", &UnsupportedError{b.format, ActCompact}
}

func (b readOnly) Check(path string) ([]model.Diagnostic, Format, error) {
	s, err := b.open(path)
	if err != nil {
		if ns, ok := err.(*NotSession); ok {
			return []model.Diagnostic{{Line: 1, Msg: ns.Error()}}, b.format, nil
		}
		return nil, b.format, err
	}
	return s.Problems(), b.format, nil
}

func (b readOnly) SessionID(path string) (string, error) {
	s, err := b.open(path)
	if err != nil {
		return "", err
	}
	return b.id(s, path), nil
}

func (b readOnly) Trashable(path string) error {
	return refuseTrash("%s is a %s session, which skein only reads", path, b.format)
}

func (b readOnly) SessionName(name string) string { return name }

// IsPart reports whether the file at path is a part of another session (a
// Claude Code sub-agent's log beside its session, a Dhara 0.5 save's
// temporary file): the list leaves it out, and so do stats and search,
// which show it with its session.
func IsPart(path string) bool {
	base := filepath.Base(path)
	if !claude.IsAgentFileName(base) && !strings.HasPrefix(base, ".") {
		return false // a part is named so: no need to look inside
	}
	b, ok := find(path).(readOnly)
	return ok && b.listable != nil && isPart(b.listable(path))
}
