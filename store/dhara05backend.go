package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"skein/model"
	"skein/store/dhara05"
)

// FormatDhara05 is the real Dhara agent's one-file sessions (0.5), which
// sit in the same folder as the seed's session folders.
const FormatDhara05 Format = dhara05.Format

// dhara05Backend reads them; it writes nothing (Dhara rewrites the whole
// file on every save, without a lock).
type dhara05Backend struct{}

func (dhara05Backend) Format() Format { return FormatDhara05 }

// Claims a .jsonl file right in a Dhara sessions folder
// (~/.dhara/sessions or $DHARA_HOME/sessions): pi keeps its files a level
// down, in a folder per project.
func (dhara05Backend) Claims(path string) bool {
	if !strings.HasSuffix(path, ".jsonl") {
		return false
	}
	dir := filepath.Dir(path)
	if filepath.Base(dir) != "sessions" {
		return false
	}
	if filepath.Base(filepath.Dir(dir)) == ".dhara" {
		return true
	}
	home := os.Getenv("DHARA_HOME")
	return home != "" && filepath.Clean(filepath.Join(home, "sessions")) == filepath.Clean(dir)
}

func (dhara05Backend) Supports(a Action) bool { return a == ActResume }

// Resume is Dhara's: --resume loads <sessionId>.jsonl from its folder.
func (dhara05Backend) Resume(path string) (string, []string) {
	return "dhara", []string{"--resume", strings.TrimSuffix(filepath.Base(path), ".jsonl")}
}

func (dhara05Backend) Open(path string) (*model.Session, error) {
	s, err := dhara05.Open(path)
	if err != nil {
		return nil, dhara05Err(err)
	}
	return s.Domain(model.SessionInfo{Path: path, Format: string(FormatDhara05)}), nil
}

func (b dhara05Backend) OpenMapped(path string) (*model.Session, error) { return b.Open(path) }

func (b dhara05Backend) OpenTail(path string, _ int64) (*model.Session, error) { return b.Open(path) }

func dhara05Err(err error) error {
	if errors.Is(err, dhara05.ErrNotSession) {
		return &NotSession{Reason: err.Error()}
	}
	return err
}

func (dhara05Backend) ListInfo(path string, buf []byte) ([]byte, Info, error) {
	if !dhara05.IsSessionFileName(filepath.Base(path)) {
		return buf, Info{}, &NotSession{Reason: "a temporary file Dhara writes while it saves"}
	}
	fullReads.Add(1)
	s, err := dhara05.Open(path)
	if err != nil {
		return buf, Info{}, dhara05Err(err)
	}
	mtime := 0.0
	if fi, err := os.Stat(path); err == nil {
		mtime = float64(fi.ModTime().UnixMilli())
	}
	return buf, s.Info(path, mtime), nil
}

// ListCached: a file whose stat is as it was (changed longer ago than the
// clock's slack) is not read; Dhara replaces the file on every save, so any
// change is a new inode and a full read.
func (b dhara05Backend) ListCached(path string, state []byte, buf []byte) ([]byte, Info, []byte, error) {
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

func (dhara05Backend) CachedInfo(path string, state []byte) (Info, bool) {
	info, _, ok := decodeDharaState(state)
	info.Path = path
	return info, ok
}

func (dhara05Backend) Label(string, string, string, ...WriteOption) (string, error) {
	return "", &UnsupportedError{FormatDhara05, ActLabel}
}
func (dhara05Backend) Rename(string, string, ...WriteOption) (string, error) {
	return "", &UnsupportedError{FormatDhara05, ActRename}
}
func (dhara05Backend) Fork(string, *model.Session, int) (Forked, error) {
	return Forked{}, &UnsupportedError{FormatDhara05, ActFork}
}
func (dhara05Backend) Append(string, func(*model.Session) (NewEntry, error), ...WriteOption) (string, error) {
	return "", ErrUnsupported
}
func (dhara05Backend) Compact(string, model.Compaction, func(*model.Session) (string, error), ...WriteOption) (string, error) {
	return "", &UnsupportedError{FormatDhara05, ActCompact}
}

func (dhara05Backend) Check(path string) ([]model.Diagnostic, Format, error) {
	s, err := dhara05.Open(path)
	if err != nil {
		if errors.Is(err, dhara05.ErrNotSession) {
			return []model.Diagnostic{{Line: 1, Msg: err.Error()}}, FormatDhara05, nil
		}
		return nil, FormatDhara05, err
	}
	return s.Problems(), FormatDhara05, nil
}

func (dhara05Backend) SessionID(path string) (string, error) {
	s, err := dhara05.Open(path)
	if err != nil {
		return "", dhara05Err(err)
	}
	if s.Meta.SessionID != "" {
		return s.Meta.SessionID, nil
	}
	return strings.TrimSuffix(filepath.Base(path), ".jsonl"), nil
}

func (dhara05Backend) Trashable(path string) error {
	return refuseTrash("%s is a Dhara 0.5 session, which skein only reads", path)
}

func (dhara05Backend) SessionName(name string) string { return name }

// statStamp is one file's stats for the list's state: size, mtime, inode,
// status-change time; settled when that change is older than the slack.
func statStamp(path string) ([]int64, bool) {
	st, err := os.Stat(path)
	if err != nil {
		return []int64{-1, 0, 0, 0, 0}, true
	}
	ino, ctime, ok := changeTime(st)
	settled := ok && timeNowNs()-ctime > ctimeSlack
	return []int64{st.Size(), st.ModTime().UnixNano(), int64(ino), ctime, 0}, settled
}
