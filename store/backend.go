package store

import (
	"errors"
	"io"
	"os"
	"strconv"
	"sync"

	"skein/internal/sanitize"
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
	// Claims reports whether the session at path is of this format, from
	// its path alone (Detect reads the bytes, for doctor and imports).
	Claims(path string) bool
	// Supports reports whether the format can do an action; the others
	// answer ErrUnsupported, and the UI shows them as unavailable.
	Supports(a Action) bool
	// Resume is the command that resumes the session at path in the
	// format's agent (ActResume): the program's name, looked for on the
	// PATH, and its arguments.
	Resume(path string) (program string, args []string)
	// Open reads a session into memory it keeps for as long as anything
	// read from it is referenced.
	Open(path string) (*model.Session, error)
	// OpenMapped is Open for a process that reads a session and exits (see
	// pi.OpenMapped); the caller recovers a fault (IsFault).
	OpenMapped(path string) (*model.Session, error)
	// OpenTail reads the header and the last tail bytes, for a first screen.
	OpenTail(path string, tail int64) (*model.Session, error)
	// ListInfo reads what the list shows of the session at path; buf is a
	// buffer the caller reuses from one call to the next (returned grown).
	ListInfo(path string, buf []byte) ([]byte, Info, error)
	// ListCached is ListInfo through what the index kept of the file
	// (nil for nothing): the format's change token and whatever lets it
	// read only what changed. It returns the state to keep (nil: keep
	// nothing).
	ListCached(path string, state []byte, buf []byte) ([]byte, Info, []byte, error)
	// CachedInfo is the record a kept state gives without looking at the
	// file (false: none, or not a session): the list's first screen, shown
	// while the files are checked.
	CachedInfo(path string, state []byte) (Info, bool)
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
	// Check reads the session at path and lists its problems as doctor
	// reports them, with the format it was read as; err is set when it
	// could not be read.
	Check(path string) ([]model.Diagnostic, Format, error)
	// SessionID is the id of the session at path, which a REF names (an
	// error when it is not a session of the format).
	SessionID(path string) (string, error)
	// Trashable refuses (a *RefusedError) a path that delete must not move
	// to the trash: one that is not a session of the format.
	Trashable(path string) error
	// SessionName is name as the format stores it (what a rename writes).
	SessionName(name string) string
}

// ErrUnsupported is a backend's answer for an action its format lacks.
var ErrUnsupported = errors.New("this session's format does not support that")

// Action is something a format may or may not let skein do to a session.
type Action uint8

const (
	ActFork Action = iota
	ActCompact
	ActLabel
	ActRename
	ActDelete
	ActResume // the format's agent can resume the session
)

var actionNames = [...]string{"fork", "compaction", "labels", "renaming", "deleting", "resuming in its agent"}

func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return "action " + strconv.Itoa(int(a))
}

// UnsupportedError says which action a session's format lacks; it is
// ErrUnsupported.
type UnsupportedError struct {
	Format Format
	Action Action
}

func (e *UnsupportedError) Error() string {
	agent := WordingOf(ForFormat(e.Format)).Agent
	if e.Action == ActDelete && Importable(string(e.Format)) {
		return agent + " keeps this session, and skein does not delete another agent's files: remove it with " + agent + ", or by hand"
	}
	if Importable(string(e.Format)) && e.Action != ActResume {
		// Its agent writes it without a lock: skein reads it, and can do
		// the action on a copy.
		return agent + " sessions are read-only in skein (no " + e.Action.String() + "): import the session first (skein session import --file FILE) and work on the copy"
	}
	return agent + " sessions do not support " + e.Action.String() + " in skein"
}

func (e *UnsupportedError) Is(target error) bool { return target == ErrUnsupported }

// CheckAction returns nil when the session at path supports a, else an
// *UnsupportedError. It finds the format (Find): for a path the user
// named; a screen that holds a list record asks its backend (Unsupported).
func CheckAction(path string, a Action) error { return Unsupported(find(path), a) }

// Unsupported is nil when b's format supports a, else an *UnsupportedError.
func Unsupported(b Backend, a Action) error {
	if b.Supports(a) {
		return nil
	}
	return &UnsupportedError{b.Format(), a}
}

// Resume is the command that resumes the session at path in its agent.
func Resume(path string) (string, []string) { return find(path).Resume(path) }

// ResumeLine is the command that resumes the session at path in b's
// agent, as a line to paste into a shell.
func ResumeLine(b Backend, path string) string {
	prog, args := b.Resume(path)
	line := prog
	for _, a := range args {
		line += " " + sanitize.ShellQuote(a)
	}
	return line
}

// Supports reports whether the session at path supports a.
func Supports(path string, a Action) bool { return find(path).Supports(a) }

// backends are the formats besides pi's, the last registered first.
var (
	backendsMu sync.RWMutex
	backends   []Backend
)

// Register adds a format's backend: For gives it the paths it claims.
// main.go registers the formats; pi's is always there, and claims what no
// other does. undo removes it again.
func Register(b Backend) (undo func()) {
	backendsMu.Lock()
	defer backendsMu.Unlock()
	backends = append([]Backend{b}, backends...)
	return func() {
		backendsMu.Lock()
		defer backendsMu.Unlock()
		for i, x := range backends {
			if x == b {
				backends = append(backends[:i:i], backends[i+1:]...)
				return
			}
		}
	}
}

// The types of pi's backend that its callers see. They are the store's
// words for now; a second format will make them its own.
type (
	Info            = model.SessionInfo  // a session's record in the list
	WriteOption     = pi.WriteOption     // how one write is made
	NewEntry        = pi.NewEntry        // an entry to append
	Field           = pi.Field           // one member of a new entry
	RefusedError    = pi.RefusedError    // why nothing was written
	NotSession      = pi.NotSession      // a file that is not a session
	NotRegularError = pi.NotRegularError // a path that is not a regular file
)

// Forked is a fork written: a new session (pi's), or a new branch of the
// same session (Dhara's, SameSession).
type Forked struct {
	Path          string
	ID            string
	ParentSession string
	Entries       int // entries copied, or shared with the parent branch
	Labels        int // label entries added to match the source's labels
	// A branch of the same session: its name and its parent branch's.
	Branch, ParentBranch string
	SameSession          bool
}

// OnWait has a write call f once, when it starts to wait for a last line
// that another writer has not finished.
func OnWait(f func()) WriteOption { return pi.OnWait(f) }

// IsFault reports whether a recovered panic is a fault in a mapped file.
func IsFault(r any) bool { return pi.IsFault(r) }

// SessionName is name as the session at path would store it (pi's
// format joins its lines and trims it).
func SessionName(path, name string) string { return find(path).SessionName(name) }

// ReadFile reads a whole session file safely (regular files only).
func ReadFile(path string) ([]byte, error) { return pi.ReadFile(path) }

// Find is the backend of the session at path, found by what it is: a
// folder is Dhara's; a file another registered format or an agent's own
// folder claims by its path (the cheap first guess) is that format's; any
// other file is what its first lines say (Detect), pi's when they say
// nothing skein reads. It does IO: it is asked once, when a session is
// found or named, and the backend travels with the session (a list
// record's Format, ForFormat); nothing asks it in a screen's Update or View.
// err is why the path could not be looked at; the backend is then pi's,
// whose reading says so again in its own words.
func Find(path string) (Backend, error) {
	if b := claimedByPath(path); b != nil {
		return b, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return piBackend{}, err
	}
	if st.IsDir() {
		return dharaBackend{}, nil
	}
	if !st.Mode().IsRegular() {
		return piBackend{}, nil // pi's reader refuses it without waiting on it
	}
	return ForFormat(detectFile(path)), nil
}

// find is Find's backend.
func find(path string) Backend {
	b, _ := Find(path)
	return b
}

// claimedByPath is the backend that claims path by its name and folder
// alone (registered formats, the agents' own folders), nil for none. No
// IO but Dhara's one stat for a path that is not a .jsonl file.
func claimedByPath(path string) Backend {
	backendsMu.RLock()
	defer backendsMu.RUnlock()
	for _, b := range backends {
		if b.Claims(path) {
			return b
		}
	}
	if (dharaBackend{}).Claims(path) {
		return dharaBackend{}
	}
	for _, b := range readOnlyBackends {
		if b.Claims(path) {
			return b
		}
	}
	return nil
}

// ForFormat is the backend of a format, pi's for one skein does not know
// (a record of pi's names its format "pi"; an older one may name none).
// No IO: the TUI asks it with a record's Format.
func ForFormat(f Format) Backend {
	backendsMu.RLock()
	defer backendsMu.RUnlock()
	for _, b := range backends {
		if b.Format() == f {
			return b
		}
	}
	if f == FormatDhara {
		return dharaBackend{}
	}
	for _, b := range readOnlyBackends {
		if b.Format() == f {
			return b
		}
	}
	return piBackend{}
}

// Of is the backend of a list record's session, by the format it names.
func Of(info Info) Backend { return ForFormat(Format(info.Format)) }

// detectFile is the format the first bytes of the file at path say it is
// (FormatUnknown when they say none, or it cannot be read). A regular
// file only: a pipe is not waited on.
func detectFile(path string) Format {
	f, _, err := pi.OpenRegular(path)
	if err != nil {
		return FormatUnknown
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	return Detect(head[:n])
}

// Open reads the session at path with its format's backend.
func Open(path string) (*model.Session, error) { return find(path).Open(path) }

// OpenMapped is Open for one-shot commands (see Backend.OpenMapped).
func OpenMapped(path string) (*model.Session, error) { return find(path).OpenMapped(path) }

// OpenTail reads the header and the last tail bytes of the session at path.
func OpenTail(path string, tail int64) (*model.Session, error) {
	return find(path).OpenTail(path, tail)
}

// Label sets or clears a label in the session at path.
func Label(path, id, text string, opts ...WriteOption) (string, error) {
	return find(path).Label(path, id, text, opts...)
}

// Rename names the session at path.
func Rename(path, name string, opts ...WriteOption) (string, error) {
	return find(path).Rename(path, name, opts...)
}

// Fork writes a fork of the session at path ending at entry at.
func Fork(path string, s *model.Session, at int) (Forked, error) { return find(path).Fork(path, s, at) }

// Append adds an entry to the session at path.
func Append(path string, build func(now *model.Session) (NewEntry, error), opts ...WriteOption) (string, error) {
	return find(path).Append(path, build, opts...)
}

// readOnlyBackends are the formats skein only reads, in the order they are
// asked whether they claim a path.
var readOnlyBackends = []Backend{dhara05Backend, codexBackend, claudeBackend}

// piBackend is pi's format.
type piBackend struct{}

func (piBackend) Format() Format       { return FormatPi }
func (piBackend) Claims(string) bool   { return true }
func (piBackend) Supports(Action) bool { return true }
func (piBackend) Resume(path string) (string, []string) {
	return "pi", []string{"--session", path}
}
func (piBackend) Open(path string) (*model.Session, error) { return piDomain(path, pi.Open) }
func (piBackend) OpenMapped(path string) (*model.Session, error) {
	return piDomain(path, pi.OpenMapped)
}
func (piBackend) OpenTail(p string, t int64) (*model.Session, error) {
	return piDomain(p, func(p string) (*pi.Session, error) { return pi.OpenTail(p, t) })
}

// Compact appends a compaction to the session at path (Backend.Compact).
func Compact(path string, c model.Compaction, check func(now *model.Session) (string, error), opts ...WriteOption) (string, error) {
	return find(path).Compact(path, c, check, opts...)
}

// piDomain opens a pi session and gives it to the domain.
func piDomain(path string, open func(string) (*pi.Session, error)) (*model.Session, error) {
	s, err := open(path)
	if err != nil {
		return nil, err
	}
	return piSession(path, s), nil
}

// piSession is pi's session of the file at path, as the domain's.
func piSession(path string, s *pi.Session) *model.Session {
	return s.Domain(model.SessionInfo{Path: path, Format: string(FormatPi)})
}
func (piBackend) SessionName(name string) string { return pi.SessionName(name) }
func (piBackend) SessionID(path string) (string, error) {
	h, err := pi.ReadHeader(path)
	return h.ID, err
}
func (piBackend) ListInfo(path string, buf []byte) ([]byte, Info, error) {
	return scanFile(path, buf)
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
	f, err := pi.WriteFork(path, p, at)
	return Forked{Path: f.Path, ID: f.ID, ParentSession: f.ParentSession, Entries: f.Entries, Labels: f.Labels}, err
}
func (piBackend) Append(path string, build func(*model.Session) (NewEntry, error), opts ...WriteOption) (string, error) {
	return pi.Append(path, func(now *pi.Session) (NewEntry, error) {
		return build(piSession(path, now))
	}, opts...)
}
func (piBackend) Compact(path string, c model.Compaction, check func(*model.Session) (string, error), opts ...WriteOption) (string, error) {
	return pi.Append(path, func(now *pi.Session) (NewEntry, error) {
		parent, err := check(piSession(path, now))
		if err != nil {
			return NewEntry{}, err
		}
		return pi.CompactionEntry(c, parent), nil
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
