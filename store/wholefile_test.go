package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"skein/model"
	"skein/store"
)

// parsed is a file as a fake format's reader parsed it: the id it names.
type parsed struct{ id string }

func (p *parsed) Info(path string, mtimeMs float64) store.Info {
	return store.Info{Path: path, ID: p.id, Modified: mtimeMs}
}

func (p *parsed) Domain(info store.Info) *model.Session { return &model.Session{Info: info} }

var errNotFake = errors.New("not a fake session")

// A WholeFile opens and lists with its format's reader: the reader's own
// not-a-session error becomes the store's (any other stays as it is), the
// list record falls back on the file's modification time and Open on
// none, and the session's id is the one the file names, else its name.
func TestWholeFile(t *testing.T) {
	dir := t.TempDir()
	named, bare, broken := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "c.jsonl")
	for _, p := range []string{named, bare, broken} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	mtime := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
	if err := os.Chtimes(named, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	errIO := errors.New("cannot read")
	w := &store.WholeFile[*parsed]{
		Reader: func(path string) (*parsed, error) {
			switch path {
			case named:
				return &parsed{id: "s1"}, nil
			case bare:
				return &parsed{}, nil
			case broken:
				return nil, errIO
			}
			return nil, errNotFake
		},
		NotSession: errNotFake,
		ID:         func(p *parsed, _ string) string { return p.id },
	}
	buf := []byte("kept")
	got, info, err := w.ListInfo(named, buf)
	if err != nil || string(got) != "kept" || info.ID != "s1" || info.Modified != float64(mtime.UnixMilli()) {
		t.Errorf("ListInfo: %q %+v %v", got, info, err)
	}
	if s, err := w.Open(named); err != nil || s.Info.Path != named || s.Info.Modified != 0 {
		t.Errorf("Open: %+v %v", s, err)
	}
	if id, err := w.SessionID(named); id != "s1" || err != nil {
		t.Errorf("SessionID of a file that names one: %q %v", id, err)
	}
	if id, err := w.SessionID(bare); id != "b" || err != nil {
		t.Errorf("SessionID of a file that names none: %q %v", id, err)
	}
	other := filepath.Join(dir, "other.jsonl")
	var ns *store.NotSession
	if _, err := w.Open(other); !errors.As(err, &ns) || !ns.Named {
		t.Errorf("Open of another format's file: %v", err)
	}
	if _, _, err := w.ListInfo(other, nil); !errors.As(err, &ns) {
		t.Errorf("ListInfo of another format's file: %v", err)
	}
	if _, err := w.SessionID(other); !errors.As(err, &ns) {
		t.Errorf("SessionID of another format's file: %v", err)
	}
	if _, err := w.Open(broken); err != errIO {
		t.Errorf("Open of a file it cannot read: %v", err)
	}
}
