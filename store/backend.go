package store

import (
	"errors"

	"skein/model"
	"skein/store/pi"
)

// Backend is one session format's reading and the actions it supports:
// the one way the TUI and the command line reach a format. A format that
// cannot do an action answers ErrUnsupported, which the UI shows as the
// action being unavailable.
//
// pi's is the only backend today; Dhara's, Claude Code's and Codex's
// (issues 11 and 12) are to come in their own packages beside store/pi.
type Backend interface {
	// Format names the backend's format.
	Format() Format
	// Open reads a session into memory it keeps for as long as anything
	// read from it is referenced.
	Open(path string) (*model.Session, error)
	// OpenMapped is Open for a process that reads a session and exits (see
	// pi.OpenMapped); the caller recovers a fault (IsFault).
	OpenMapped(path string) (*model.Session, error)
	// OpenTail reads the header and the last tail bytes, for a first screen.
	OpenTail(path string, tail int64) (*model.Session, error)
	// Label sets (or, with "", clears) the label of entry id.
	Label(path, id, text string, opts ...WriteOption) (string, error)
	// Rename names the session ("" clears the name).
	Rename(path, name string, opts ...WriteOption) (string, error)
	// Fork writes a new session beside path holding the path to entry at.
	Fork(path string, s *model.Session, at int) (Forked, error)
	// Append adds the entry build makes from the session as it is when the
	// write happens; build may refuse (a *RefusedError).
	Append(path string, build func(now *model.Session) (NewEntry, error), opts ...WriteOption) (string, error)
	// Compact appends a compaction after the entry check names, check
	// being called with the session as it is when the write happens; it
	// may refuse (a *RefusedError).
	Compact(path string, c model.Compaction, check func(now *model.Session) (parent string, err error), opts ...WriteOption) (string, error)
}

// ErrUnsupported is a backend's answer for an action its format lacks.
var ErrUnsupported = errors.New("this session's format does not support that")

// The types of pi's backend that its callers see. They are the store's
// words for now; a second format will make them its own.
type (
	Info            = model.SessionInfo  // a session's record in the list
	WriteOption     = pi.WriteOption     // how one write is made
	NewEntry        = pi.NewEntry        // an entry to append
	Field           = pi.Field           // one member of a new entry
	Forked          = pi.Fork            // a fork written
	RefusedError    = pi.RefusedError    // why nothing was written
	NotSession      = pi.NotSession      // a file that is not a session
	NotRegularError = pi.NotRegularError // a path that is not a regular file
)

// OnWait has a write call f once, when it starts to wait for a last line
// that another writer has not finished.
func OnWait(f func()) WriteOption { return pi.OnWait(f) }

// IsFault reports whether a recovered panic is a fault in a mapped file.
func IsFault(r any) bool { return pi.IsFault(r) }

// SessionName is a name as the format stores it (pi trims it).
func SessionName(name string) string { return pi.SessionName(name) }

// ReadFile reads a whole session file safely (regular files only).
func ReadFile(path string) ([]byte, error) { return pi.ReadFile(path) }

// For is the backend of the session file at path.
func For(path string) Backend { return piBackend{} }

// Open reads the session at path with its format's backend.
func Open(path string) (*model.Session, error) { return For(path).Open(path) }

// OpenMapped is Open for one-shot commands (see Backend.OpenMapped).
func OpenMapped(path string) (*model.Session, error) { return For(path).OpenMapped(path) }

// OpenTail reads the header and the last tail bytes of the session at path.
func OpenTail(path string, tail int64) (*model.Session, error) {
	return For(path).OpenTail(path, tail)
}

// Label sets or clears a label in the session at path.
func Label(path, id, text string, opts ...WriteOption) (string, error) {
	return For(path).Label(path, id, text, opts...)
}

// Rename names the session at path.
func Rename(path, name string, opts ...WriteOption) (string, error) {
	return For(path).Rename(path, name, opts...)
}

// Fork writes a fork of the session at path ending at entry at.
func Fork(path string, s *model.Session, at int) (Forked, error) { return For(path).Fork(path, s, at) }

// Append adds an entry to the session at path.
func Append(path string, build func(now *model.Session) (NewEntry, error), opts ...WriteOption) (string, error) {
	return For(path).Append(path, build, opts...)
}

// piBackend is pi's format.
type piBackend struct{}

func (piBackend) Format() Format                           { return FormatPi }
func (piBackend) Open(path string) (*model.Session, error) { return piDomain(path, pi.Open) }
func (piBackend) OpenMapped(path string) (*model.Session, error) {
	return piDomain(path, pi.OpenMapped)
}
func (piBackend) OpenTail(p string, t int64) (*model.Session, error) {
	return piDomain(p, func(p string) (*pi.Session, error) { return pi.OpenTail(p, t) })
}

// Compact appends a compaction to the session at path (Backend.Compact).
func Compact(path string, c model.Compaction, check func(now *model.Session) (string, error), opts ...WriteOption) (string, error) {
	return For(path).Compact(path, c, check, opts...)
}

// piDomain opens a pi session and gives it to the domain.
func piDomain(path string, open func(string) (*pi.Session, error)) (*model.Session, error) {
	s, err := open(path)
	if err != nil {
		return nil, err
	}
	return s.Domain(model.SessionInfo{Path: path, Format: string(FormatPi)}), nil
}
func (piBackend) Label(path, id, text string, opts ...WriteOption) (string, error) {
	return pi.Label(path, id, text, opts...)
}
func (piBackend) Rename(path, name string, opts ...WriteOption) (string, error) {
	return pi.Rename(path, name, opts...)
}
func (piBackend) Fork(path string, s *model.Session, at int) (Forked, error) {
	p := pi.Of(s)
	if p == nil {
		return Forked{}, ErrUnsupported
	}
	return pi.WriteFork(path, p, at)
}
func (piBackend) Append(path string, build func(*model.Session) (NewEntry, error), opts ...WriteOption) (string, error) {
	return pi.Append(path, func(now *pi.Session) (NewEntry, error) {
		return build(now.Domain(model.SessionInfo{Path: path, Format: string(FormatPi)}))
	}, opts...)
}
func (piBackend) Compact(path string, c model.Compaction, check func(*model.Session) (string, error), opts ...WriteOption) (string, error) {
	return pi.Append(path, func(now *pi.Session) (NewEntry, error) {
		parent, err := check(now.Domain(model.SessionInfo{Path: path, Format: string(FormatPi)}))
		if err != nil {
			return NewEntry{}, err
		}
		return pi.CompactionEntry(now, c, parent), nil
	}, opts...)
}

// Parse reads a session from its bytes (a pi file's; the tests' way to a
// session without a file).
func Parse(data []byte) (*model.Session, error) {
	s, err := pi.Parse(data)
	if err != nil {
		return nil, err
	}
	return s.Domain(model.SessionInfo{Format: string(FormatPi)}), nil
}
