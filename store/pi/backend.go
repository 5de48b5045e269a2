package pi

import (
	"errors"
	"os"

	"skein/model"
	"skein/store"
)

// backend is pi's format for the store: a session is a JSONL file that
// starts with a header. It registers as the fallback: a file no format
// claims or detects is read as pi's, whose reader says why it is not a
// session.
type backend struct{}

func init() { store.RegisterFallback(backend{}) }

var wording = store.Wording{
	Agent:   "pi",
	Kind:    "a pi session",
	Folders: "~/.pi/agent/sessions, or $PI_CODING_AGENT_SESSION_DIR, or pi's settings.json sessionDir",
	Fork:    "A new session beside this one will hold the %d entries from the first to this one, copied byte for byte, with their labels. This session is not touched.",
	Rename:  "pi shows this name in its session list. An empty name clears it.",
	Delete:  "The file moves to the trash (a desktop can restore it). Its forks stay.",
}

func (backend) Format() store.Format    { return store.FormatPi }
func (backend) Wording() store.Wording  { return wording }
func (backend) Claims(path string) bool { return false }

// Roots is pi's session folder (Env.PiSessionRoot).
func (backend) Roots(e store.Env) []string { return []string{e.PiSessionRoot()} }
func (backend) Resume(path string) (string, []string) {
	return "pi", []string{"--session", path}
}

// Detect is a first record that is pi's header: {"type":"session","id":...}.
func (backend) Detect(line []byte, first bool) bool {
	if !first {
		return false
	}
	m := store.Members(line, "type", "id")
	return m[0].Value == "session" && m[1].String
}

func (backend) Open(path string) (*model.Session, error) { return domain(path, Open) }

// OpenMapped maps a large file (see pi.OpenMapped).
func (backend) OpenMapped(path string) (*model.Session, error) { return domain(path, OpenMapped) }
func (backend) OpenTail(p string, t int64) (*model.Session, error) {
	return domain(p, func(p string) (*Session, error) { return OpenTail(p, t) })
}

// Parse reads a session from a file's bytes.
func (backend) Parse(data []byte) (*model.Session, error) {
	s, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return s.Domain(model.SessionInfo{Format: string(store.FormatPi)}), nil
}

// domain opens a pi session and gives it to the domain.
func domain(path string, open func(string) (*Session, error)) (*model.Session, error) {
	s, err := open(path)
	if err != nil {
		return nil, err
	}
	return sessionAt(path, s), nil
}

// sessionAt is pi's session of the file at path, as the domain's.
func sessionAt(path string, s *Session) *model.Session {
	return s.Domain(model.SessionInfo{Path: path, Format: string(store.FormatPi)})
}

func (backend) SessionName(name string) string { return SessionName(name) }
func (backend) SessionID(path string) (string, error) {
	h, err := ReadHeader(path)
	return h.ID, err
}
func (backend) ListInfo(path string, buf []byte) ([]byte, Info, error) { return scanFile(path, buf) }
func (backend) Label(path, id, text string, opts ...WriteOption) (string, error) {
	return Label(path, id, text, opts...)
}
func (backend) Rename(path, name string, opts ...WriteOption) (string, error) {
	return Rename(path, name, opts...)
}
func (backend) Fork(path string, s *model.Session, at int) (store.Forked, error) {
	p := Of(s)
	if p == nil {
		return store.Forked{}, store.ErrUnsupported
	}
	f, err := WriteFork(path, p, at)
	return store.Forked{Path: f.Path, ID: f.ID, ParentSession: f.ParentSession, Entries: f.Entries, Labels: f.Labels}, err
}
func (backend) Append(path string, build func(*model.Session) (NewEntry, error), opts ...WriteOption) (string, error) {
	return Append(path, func(now *Session) (NewEntry, error) {
		return build(sessionAt(path, now))
	}, opts...)
}
func (backend) Compact(path string, c model.Compaction, check func(*model.Session) (string, error), opts ...WriteOption) (string, error) {
	return Append(path, func(now *Session) (NewEntry, error) {
		parent, err := check(sessionAt(path, now))
		if err != nil {
			return NewEntry{}, err
		}
		return CompactionEntry(c, parent), nil
	}, opts...)
}

// Check is the file's bytes as pi reads them, and what else the file
// looks like when it is not pi's.
func (backend) Check(path string) ([]model.Diagnostic, store.Format, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, store.FormatUnknown, err
	}
	format := store.Detect(data)
	if format != store.FormatPi {
		msg := "missing or invalid session header: not a pi session"
		if kind := store.FormatKind(format); kind != "" {
			msg = "not a pi session (it looks like " + kind + ")"
		}
		return []model.Diagnostic{{Line: 1, Msg: msg}}, format, nil
	}
	s, err := Parse(data)
	if err != nil {
		return []model.Diagnostic{{Line: 1, Msg: err.Error()}}, format, nil
	}
	return s.Diagnostics, format, nil
}

// Trashable is a regular file with a session header.
func (backend) Trashable(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	switch {
	case fi.IsDir():
		return store.RefuseTrash("%s is a folder", path)
	case !fi.Mode().IsRegular():
		return store.RefuseTrash("%s is not a regular file", path)
	}
	if _, err := ReadHeader(path); err != nil {
		var ns *NotSession
		if errors.As(err, &ns) {
			return store.RefuseTrash("%s is not a pi session (%s)", path, ns.Reason)
		}
		return err
	}
	return nil
}
