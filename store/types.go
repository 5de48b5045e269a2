package store

import (
	"errors"
	"skein/internal/jsjson"
	"skein/internal/readfile"
	"skein/model"
)

// Info is a session's record in the list, which every format fills.
type Info = model.SessionInfo

// NotRegularError says a path names something other than a regular file
// (a folder, a pipe, a device): nothing reads it.
type NotRegularError = readfile.NotRegularError

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

// Field is one member of a new entry, its value raw JSON; a nil value is
// left out, as JSON.stringify leaves out undefined.
type Field struct {
	Key   string
	Value []byte
}

// AppendFields appends the fields as the members of a JSON object that
// follow others: ,"key":value each, a field with a nil value left out as
// JSON.stringify leaves out undefined.
func AppendFields(b []byte, fields []Field) []byte {
	for _, f := range fields {
		if f.Value == nil {
			continue
		}
		b = append(b, ',')
		b = jsjson.AppendKey(b, f.Key)
		b = append(b, f.Value...)
	}
	return b
}

// NewEntry is an entry to append: its type, its parent (nil: the file's
// leaf at the moment of writing) and its fields after the format's own
// (pi's id, parentId and timestamp).
type NewEntry struct {
	Type   string
	Parent *string
	Fields []Field
	// Stamped, when set, gives the fields that follow Fields and depend on
	// the entry's own timestamp (a compaction's system prompt checkpoint).
	Stamped func(timestamp string) []Field
}

// RefusedError says why skein will not write to a session; it is
// unchanged.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return e.Reason }

// NotSession says a file is not a session of the format that read it
// (Format, when set, names it in the message), or, with Named, is not the
// session its Reason names.
type NotSession struct {
	Reason string
	Named  bool
	Format Format
}

func (e *NotSession) Error() string {
	switch {
	case e.Named:
		return e.Reason
	case e.Format != "":
		return "not a " + string(e.Format) + " session: " + e.Reason
	}
	return "not a session: " + e.Reason
}

// PartOfSession is a file that is a part of another session (a Claude Code
// sub-agent's log), or a writer's temporary file: not a session of its own,
// and no problem either. The list leaves it out without a word.
type PartOfSession struct{ Reason string }

func (e *PartOfSession) Error() string { return e.Reason }

// A WriteOption changes how one write is made.
type WriteOption func(*WriteOptions)

// WriteOptions are what the options of one write set.
type WriteOptions struct {
	// OnWait is called once, when the write starts to wait for a last line
	// that another writer has not finished, so that a person can be told
	// why nothing happens yet.
	OnWait func()
}

// OnWait has a write call f once, when it starts to wait for a last line
// that another writer has not finished.
func OnWait(f func()) WriteOption { return func(o *WriteOptions) { o.OnWait = f } }

// Options gathers the options of one write.
func Options(opts []WriteOption) WriteOptions {
	var o WriteOptions
	for _, f := range opts {
		f(&o)
	}
	return o
}

// none is the backend of a file when no format is registered to read it.
type none struct{}

func (none) Format() Format { return FormatUnknown }
func (none) Wording() Wording {
	return Wording{Agent: "no agent", Kind: "a file skein reads no format of"}
}
func (none) Claims(string) bool                  { return false }
func (none) Detect([]byte, bool) bool            { return false }
func (none) Open(string) (*model.Session, error) { return nil, errNone() }
func (none) ListInfo(_ string, buf []byte) ([]byte, Info, error) {
	return buf, Info{}, errNone()
}
func (none) SessionID(string) (string, error) { return "", errNone() }

func errNone() error { return &NotSession{Reason: "no format skein reads claims it", Named: true} }

// NotSessionIf is err with the store's type (a *NotSession, its message
// as it is) when it is sentinel, a format reader's word for a file that is
// not one of its sessions; else err.
func NotSessionIf(err, sentinel error) error {
	if err != nil && errors.Is(err, sentinel) {
		return &NotSession{Reason: err.Error(), Named: true}
	}
	return err
}
