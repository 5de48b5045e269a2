package store

import (
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"skein/internal/readfile"
	"skein/internal/sanitize"
	"skein/model"
)

// Backend is one session format: the one way the store, the TUI and the
// command line reach it. A format package implements it and registers it
// (Register, from its init); main.go's list of imports (store/formats)
// wires them. What every format gives is here; what only some can do
// (write, compact, resume, read a file in parts for the indexes) is an
// optional interface below, which a backend adds as io.WriterTo is added
// to io.Writer, and which the store asks for with a type assertion. A
// format that lacks one gets the store's default (read whole, list by the
// file's stat, refuse the action).
type Backend interface {
	// Format names the backend's format, as a list record's Format holds it.
	Format() Format
	// Wording is what the screens say of its sessions: the agent's name,
	// what an action's dialog says.
	Wording() Wording
	// Claims reports whether the session at path is of this format from its
	// path alone (an agent's own folder, a name only it gives): the cheap
	// first guess. No IO but one stat.
	Claims(path string) bool
	// Detect reports whether a line at the start of a file is a record of
	// this format (first: it is the first line that is JSON). A format's
	// rules are its own and do not overlap another's.
	Detect(line []byte, first bool) bool
	// Open reads a session into memory it keeps for as long as anything
	// read from it is referenced.
	Open(path string) (*model.Session, error)
	// ListInfo reads what the list shows of the session at path; buf is a
	// buffer the caller reuses from one call to the next (returned grown).
	ListInfo(path string, buf []byte) ([]byte, Info, error)
	// SessionID is the id of the session at path, which a REF names (an
	// error when it is not a session of the format).
	SessionID(path string) (string, error)
}

// Mapper is a Backend whose OpenMapped maps the file and keeps only an
// index of it on the heap (pi's): for a process that reads a session and
// exits, which recovers a fault (IsFault). Without it OpenMapped is Open.
type Mapper interface {
	OpenMapped(path string) (*model.Session, error)
}

// TailOpener reads the header and the last tail bytes, for a first screen.
// Without it OpenTail is Open.
type TailOpener interface {
	OpenTail(path string, tail int64) (*model.Session, error)
}

// Parser reads a session from its bytes (Parse: the tests' way to a session
// without a file).
type Parser interface {
	Parse(data []byte) (*model.Session, error)
}

// Folders is a format whose sessions are folders (Dhara's).
type Folders interface {
	// IsSessionFolder reports whether dir is one session of the format:
	// Discover lists it as one and does not look inside.
	IsSessionFolder(dir string) bool
	// FolderFiles are the names of the files of a session folder: live
	// follow watches them, and their stats make the session's change token.
	FolderFiles() []string
}

// FileNamer is a format whose session files are not named *.jsonl (Cline's
// <id>/<id>.messages.json): Discover, and live follow, take a file that
// SessionFile names as a session. From the path alone, no IO.
type FileNamer interface {
	SessionFile(path string) bool
}

// isSessionFile reports whether a regular file at path is a session by its
// name: a .jsonl file (pi's and most agents'), or one a FileNamer names.
func isSessionFile(path string) bool {
	if strings.HasSuffix(path, ".jsonl") {
		return true
	}
	for _, b := range Backends() {
		if n, ok := b.(FileNamer); ok && n.SessionFile(path) {
			return true
		}
	}
	return false
}

// Container is a format that keeps many sessions in one file (OpenCode's
// SQLite database): Discover lists each of them as "<file>#<session id>",
// which the format's Claims knows from the path alone, and the file's
// stats (and its companions', ContainerFiles) are every one of its
// sessions' change token.
type Container interface {
	// ContainerName reports whether a file of that name holds sessions
	// (no IO).
	ContainerName(base string) bool
	// Sessions are the paths of the sessions the file at path holds.
	Sessions(path string) ([]string, error)
	// ContainerFiles are the files whose stats make the change token of
	// the session at path (a "<file>#<id>" path): the container and the
	// files its writer keeps beside it.
	ContainerFiles(path string) []string
}

// ListCacher lists through what the list's index kept of a file: the
// format's change token and whatever lets it read only what changed (pi's
// files grow; it reads on from where it stopped). Without it a session
// whose files stat as they did is not read, and any other is read whole.
type ListCacher interface {
	// ListCached is ListInfo through the kept state (nil for nothing); it
	// returns the state to keep (nil: keep nothing).
	ListCached(path string, state []byte, buf []byte) ([]byte, Info, []byte, error)
	// CachedInfo is the record a kept state gives without looking at the
	// file (false: none, or not a session).
	CachedInfo(path string, state []byte) (Info, bool)
}

// Parter is a format some of whose files are parts of another session (a
// Claude Code sub-agent's log beside its session, a temporary file an
// agent writes while it saves): the list leaves them out.
type Parter interface {
	// PartName reports whether a file of that name may be a part (no IO).
	PartName(base string) bool
	// PartOf is a *PartOfSession for a file that is a part, else nil.
	PartOf(path string) error
}

// Labeler sets (or, with "", clears) the label of entry id (ActLabel).
type Labeler interface {
	Label(path, id, text string, opts ...WriteOption) (string, error)
}

// Renamer names the session, "" clearing the name (ActRename).
type Renamer interface {
	Rename(path, name string, opts ...WriteOption) (string, error)
	// SessionName is name as the format stores it (what a rename writes).
	SessionName(name string) string
}

// Forker writes a fork holding the path to entry at (ActFork).
type Forker interface {
	Fork(path string, s *model.Session, at int) (Forked, error)
}

// Appender adds the entry build makes from the session as it is when the
// write happens; build may refuse (a *RefusedError).
type Appender interface {
	Append(path string, build func(now *model.Session) (NewEntry, error), opts ...WriteOption) (string, error)
}

// Compacter appends a compaction after the entry check names, check being
// called with the session as it is when the write happens (ActCompact).
type Compacter interface {
	Compact(path string, c model.Compaction, check func(now *model.Session) (parent string, err error), opts ...WriteOption) (string, error)
}

// Resumer is a format whose agent resumes a session (ActResume): the
// program's name, looked for on the PATH, and its arguments.
type Resumer interface {
	Resume(path string) (program string, args []string)
}

// Trasher is a format whose sessions delete moves to the trash (ActDelete):
// Trashable refuses (a *RefusedError) a path that is not one of its
// sessions. Without it a session is refused: skein only reads it.
type Trasher interface {
	Trashable(path string) error
}

// Checker reads the session at path as doctor does, with the format it
// was read as. Without it doctor lists the session's Problems.
type Checker interface {
	Check(path string) ([]model.Diagnostic, Format, error)
}

// TextReader is a format whose sessions the text index (package search)
// reads its own way: pi's files are read on from where the index stopped,
// and a record alone with the file's header; a Dhara folder's records are
// lines of its two entry files. Without it a session is read whole when it
// changed, and a record's place is its entry's index.
type TextReader interface {
	// ReadText reads the session at path: whole, or, with prev a state of
	// the same file that grew since, only what follows (grown).
	ReadText(path string, prev *TextState) (part *TextPart, grown bool, err error)
	// ReadEntries gives fn each record of recs (as ReadText placed it) as a
	// session whose last entry it is, for those that parse.
	ReadEntries(path string, recs [][2]int64, fn func(i int, s *model.Session)) error
}

// TextChecker tells whether a session is as the text index found it by
// its own token (pi's: a stat when it can be trusted, else the bytes read).
// Without it the session's files' stats must be as they were, and their
// bytes when the stats changed too recently to be trusted.
type TextChecker interface {
	CheckText(t TextState, path string) (TextState, bool)
}

// Importable is a format skein reads only, whose sessions an import makes
// into a copy skein can write: ImportFormat is its name for `session
// import --format`.
type Importable interface {
	ImportFormat() string
}

// ErrUnsupported is the answer for an action a session's format lacks.
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

// Can reports whether b's format supports a: whether it has the action's
// interface.
func Can(b Backend, a Action) bool {
	var ok bool
	switch a {
	case ActFork:
		_, ok = b.(Forker)
	case ActCompact:
		_, ok = b.(Compacter)
	case ActLabel:
		_, ok = b.(Labeler)
	case ActRename:
		_, ok = b.(Renamer)
	case ActDelete:
		_, ok = b.(Trasher)
	case ActResume:
		_, ok = b.(Resumer)
	}
	return ok
}

// UnsupportedError says which action a session's format lacks; it is
// ErrUnsupported.
type UnsupportedError struct {
	Format Format
	Action Action
}

func (e *UnsupportedError) Error() string {
	b := ForFormat(e.Format)
	agent := b.Wording().Agent
	_, importable := b.(Importable)
	if e.Action == ActDelete && importable {
		return agent + " keeps this session, and skein does not delete another agent's files: remove it with " + agent + ", or by hand"
	}
	if importable && e.Action != ActResume {
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
	if Can(b, a) {
		return nil
	}
	return &UnsupportedError{b.Format(), a}
}

// Supports reports whether the session at path supports a.
func Supports(path string, a Action) bool { return Can(find(path), a) }

// Importer is b's import format, false when b's sessions are not imported
// first (skein writes them, or cannot import them).
func Importer(b Backend) (string, bool) {
	if i, ok := b.(Importable); ok {
		return i.ImportFormat(), true
	}
	return "", false
}

// IsImportable reports whether the sessions of a format are imported
// before skein writes to them (the read-only formats').
func IsImportable(f Format) bool {
	_, ok := ForFormat(f).(Importable)
	return ok
}

// ResumeOf is the command that resumes the session at path in b's agent
// (no program when b's agent cannot).
func ResumeOf(b Backend, path string) (string, []string) {
	if r, ok := b.(Resumer); ok {
		return r.Resume(path)
	}
	return "", nil
}

// Resume is the command that resumes the session at path in its agent.
func Resume(path string) (string, []string) { return ResumeOf(find(path), path) }

// ResumeLine is the command that resumes the session at path in b's
// agent, as a line to paste into a shell: in the session's folder cwd when
// it is known, since an agent runs its tools where it starts, and Claude
// Code finds a session by its project folder ("" for none: the line alone).
func ResumeLine(b Backend, path, cwd string) string {
	prog, args := ResumeOf(b, path)
	line := prog
	for _, a := range args {
		line += " " + sanitize.ShellQuote(a)
	}
	if cwd != "" && prog != "" {
		line = "cd " + sanitize.ShellQuote(cwd) + " && " + line
	}
	return line
}

// The registry: the backends, the last registered first, and the one for
// a file no format claims.
var (
	backendsMu sync.RWMutex
	backends   []Backend
	fallback   Backend = none{}
)

// Register adds a format's backend. A format package calls it from its
// init, as database/sql drivers and image decoders do; the list of imports
// in store/formats wires them. undo removes it again (for tests).
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

// RegisterFallback registers b (Register) as the backend of a file that no
// format claims or detects, and of a record whose format skein does not
// know: pi's, whose reader says why such a file is not a session (a record
// of pi's names its format "pi"; an older one may name none).
func RegisterFallback(b Backend) {
	Register(b)
	backendsMu.Lock()
	fallback = b
	backendsMu.Unlock()
}

// registered is the registry as it is now.
func registered() ([]Backend, Backend) {
	backendsMu.RLock()
	defer backendsMu.RUnlock()
	return backends, fallback
}

// fallbackFirst is every backend, the fallback's (pi's) first: the order in
// which --help and the default roots name the agents.
func fallbackFirst() []Backend {
	bs, fb := registered()
	if fb != nil {
		bs = append([]Backend{fb}, bs...)
	}
	return bs
}

// Backends are the registered formats.
func Backends() []Backend {
	bs, _ := registered()
	return bs
}

// IsFault reports whether a recovered panic is a fault in a mapped file.
func IsFault(r any) bool {
	err, ok := r.(runtime.Error)
	if !ok {
		return false
	}
	_, addr := err.(interface{ Addr() uintptr })
	return addr
}

// ReadFile reads a whole session file safely (regular files only).
func ReadFile(path string) ([]byte, error) { return readfile.Regular(path) }

// Find is the backend of the session at path, found by what it is: a
// format that claims the path by its name and folder (the cheap first
// guess), a folder a format keeps its sessions in, else what the file's
// first lines say (Detect), the fallback's when they say nothing skein
// reads. It does IO: it is asked once, when a session is found or named,
// and the backend travels with the session (a list record's Format,
// ForFormat); nothing asks it in a screen's Update or View. err is why the
// path could not be looked at; the backend is then the fallback's, whose
// reading says so again in its own words.
func Find(path string) (Backend, error) {
	if b := claimedByPath(path); b != nil {
		return b, nil
	}
	bs, fb := registered()
	st, err := os.Stat(path)
	if err != nil {
		return fb, err
	}
	if st.IsDir() {
		for _, b := range bs {
			if _, ok := b.(Folders); ok {
				return b, nil
			}
		}
		return fb, nil
	}
	if !st.Mode().IsRegular() {
		return fb, nil // its reader refuses it without waiting on it
	}
	if b := detectFile(path); b != nil {
		return b, nil
	}
	return fb, nil
}

// find is Find's backend.
func find(path string) Backend {
	b, _ := Find(path)
	return b
}

// claimedByPath is the backend that claims path by its name and folder
// alone, nil for none.
func claimedByPath(path string) Backend {
	bs, _ := registered()
	for _, b := range bs {
		if b.Claims(path) {
			return b
		}
	}
	return nil
}

// ForFormat is the backend of a format, the fallback for one skein does
// not know. No IO: the TUI asks it with a record's Format.
func ForFormat(f Format) Backend {
	bs, fb := registered()
	for _, b := range bs {
		if b.Format() == f {
			return b
		}
	}
	return fb
}

// Of is the backend of a list record's session, by the format it names.
func Of(info Info) Backend { return ForFormat(Format(info.Format)) }

// Open reads the session at path with its format's backend.
func Open(path string) (*model.Session, error) { return find(path).Open(path) }

// OpenMapped is Open for one-shot commands (see Mapper).
func OpenMapped(path string) (*model.Session, error) {
	b := find(path)
	if m, ok := b.(Mapper); ok {
		return m.OpenMapped(path)
	}
	return b.Open(path)
}

// OpenTail reads the header and the last tail bytes of the session at path
// (the whole session for a format that cannot read a tail).
func OpenTail(path string, tail int64) (*model.Session, error) {
	b := find(path)
	if t, ok := b.(TailOpener); ok {
		return t.OpenTail(path, tail)
	}
	return b.Open(path)
}

// Parse reads a session from its bytes (a pi file's, or any format that
// can: the tests' way to a session without a file).
func Parse(data []byte) (*model.Session, error) {
	b := detectHead(data)
	if b == nil {
		_, b = registered()
	}
	if p, ok := b.(Parser); ok {
		return p.Parse(data)
	}
	return nil, &NotSession{Reason: "no format skein reads can parse it"}
}

// Label sets or clears a label in the session at path.
func Label(path, id, text string, opts ...WriteOption) (string, error) {
	b := find(path)
	if l, ok := b.(Labeler); ok {
		return l.Label(path, id, text, opts...)
	}
	return "", &UnsupportedError{b.Format(), ActLabel}
}

// Rename names the session at path.
func Rename(path, name string, opts ...WriteOption) (string, error) {
	b := find(path)
	if r, ok := b.(Renamer); ok {
		return r.Rename(path, name, opts...)
	}
	return "", &UnsupportedError{b.Format(), ActRename}
}

// SessionName is name as the session at path would store it (pi's
// format joins its lines and trims it).
func SessionName(path, name string) string {
	if r, ok := find(path).(Renamer); ok {
		return r.SessionName(name)
	}
	return name
}

// Fork writes a fork of the session at path ending at entry at.
func Fork(path string, s *model.Session, at int) (Forked, error) {
	b := find(path)
	if f, ok := b.(Forker); ok {
		return f.Fork(path, s, at)
	}
	return Forked{}, &UnsupportedError{b.Format(), ActFork}
}

// Append adds an entry to the session at path.
func Append(path string, build func(now *model.Session) (NewEntry, error), opts ...WriteOption) (string, error) {
	if a, ok := find(path).(Appender); ok {
		return a.Append(path, build, opts...)
	}
	return "", ErrUnsupported
}

// Compact appends a compaction to the session at path (Compacter).
func Compact(path string, c model.Compaction, check func(now *model.Session) (string, error), opts ...WriteOption) (string, error) {
	b := find(path)
	if cp, ok := b.(Compacter); ok {
		return cp.Compact(path, c, check, opts...)
	}
	return "", &UnsupportedError{b.Format(), ActCompact}
}

// Check reads the session at path and lists its problems, as doctor
// reports them, with the format it was read as; err is set when it could
// not be read.
func Check(path string) ([]model.Diagnostic, Format, error) {
	b := find(path)
	if c, ok := b.(Checker); ok {
		return c.Check(path)
	}
	s, err := b.Open(path)
	if err != nil {
		var ns *NotSession
		if errors.As(err, &ns) {
			return []model.Diagnostic{{Line: 1, Msg: ns.Error()}}, b.Format(), nil
		}
		return nil, b.Format(), err
	}
	return s.Problems(), b.Format(), nil
}
