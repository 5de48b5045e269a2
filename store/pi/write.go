package pi

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"

	"skein/internal/jsjson"
	"skein/internal/randid"
	"skein/internal/safewrite"
	"skein/store"
)

// The store's types for a write: pi's writes take and give them.
type (
	Field        = store.Field
	NewEntry     = store.NewEntry
	RefusedError = store.RefusedError
	WriteOption  = store.WriteOption
)

// now is the clock of new entries; tests set it.
var now = time.Now

func isoNow() string { return now().UTC().Format("2006-01-02T15:04:05.000Z") }

// newID draws an 8-hex-digit id that the session does not use, as pi does.
func newID(s *Session) string {
	return randid.Fresh("", 4, func(id string) bool {
		_, taken := s.Index(id)
		return taken
	})
}

// OnWait has the write call f once, when it starts to wait for a last line
// that another writer has not finished, so that a person can be told why
// nothing happens yet.
func OnWait(f func()) WriteOption { return store.OnWait(f) }

// Append adds one entry to a session file under the writing rules: an
// advisory lock; the leaf found from the file as it is at the moment of
// writing (an agent may have appended since skein read it); a last line
// that another writer has not finished is waited for, and counts as a
// crashed writer's only once the file has not changed for a while (then a
// newline goes first, so that nothing is glued or lost; a file that keeps
// changing is refused); the whole line in one write, its space reserved
// first, and a sync before success; a write or sync that fails is cut off
// again (internal/safewrite), so that the file is as it was. build sees the
// session as it is under the lock and may refuse; it runs again if the
// file grew while the line was made. A file with no valid header, or older
// than version 3 (pi would rewrite it), is refused. A file that another
// program put in the path's place (a rename over it) while Append waited
// is let go, and the file the path names now is written instead.
func Append(path string, build func(s *Session) (NewEntry, error), opts ...WriteOption) (id string, err error) {
	o := store.Options(opts)
	if o.OnWait != nil {
		// Once for the whole append, however many files it opens.
		f := o.OnWait
		o.OnWait = func() {
			if f != nil {
				f()
				f = nil
			}
		}
	}
	for try := 1; ; try++ {
		id, err := appendOnce(path, build, o.OnWait)
		if !errors.Is(err, errReplaced) {
			return id, err
		}
		if try == replacedTries {
			return "", &RefusedError{Reason: fmt.Sprintf("%s: another program replaced the file %d times while skein waited to write to it; nothing was written; try again", path, replacedTries)}
		}
	}
}

// replacedTries bounds how many files Append opens when the path keeps
// being replaced under it.
const replacedTries = 3

// errReplaced says the path names another file than the one Append opened.
var errReplaced = errors.New("the file was replaced")

// through is what pi's writes go through to a file: Append's line, and a
// new file's bytes (writeNew) and sync. Tests wrap the file to fail after
// any number of bytes, or at the sync.
var through = func(f *os.File) safewrite.File { return f }

// appendOnce is Append to the file the path names when it is opened.
func appendOnce(path string, build func(s *Session) (NewEntry, error), onWait func()) (id string, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if err := lockFile(f); err != nil {
		return "", fmt.Errorf("lock %s: %w", path, err)
	}
	defer unlockFile(f)
	st := newSettler(f, path, onWait)
	for {
		data, err := st.read()
		if err != nil {
			return "", err
		}
		line, id, err := appendLine(path, data, build)
		if err != nil {
			return "", err
		}
		// pi does not take the lock: an agent may have appended while the
		// line was made, and the leaf is then another.
		if same, err := st.unchanged(data); err != nil {
			return "", err
		} else if !same {
			if err := st.checkLimit(); err != nil {
				return "", err
			}
			continue
		}
		// Another program may have put a new file in the path's place
		// while this one was waited for: an entry written now would go to
		// a file that nobody reads any more.
		if err := stillNamed(f, path); err != nil {
			return "", err
		}
		if err := safewrite.Append(through(f), int64(len(data)), line); err != nil {
			return "", fmt.Errorf("append to %s: %w", path, err)
		}
		safewrite.RemoveStaleTemps(filepath.Dir(path))
		return id, nil
	}
}

// stillNamed says whether path still names the open file f: errReplaced
// when another file has its name, a refusal when nothing has.
func stillNamed(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("stat %s: %w", path, err)
	}
	now, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &RefusedError{Reason: fmt.Sprintf("%s was removed while skein waited to write to it; nothing was written", path)}
	}
	if err != nil {
		return err
	}
	if !os.SameFile(fi, now) {
		return errReplaced
	}
	return nil
}

// appendLine makes the line that appends build's entry to a file holding
// data, its last line settled. A line left partial by a crashed writer, or a
// last line without its newline, gets one first.
func appendLine(path string, data []byte, build func(s *Session) (NewEntry, error)) (line []byte, id string, err error) {
	s, err := Parse(data)
	var ns *NotSessionError
	if errors.As(err, &ns) {
		return nil, "", &RefusedError{Reason: fmt.Sprintf("%s has no valid session header; skein does not write to it", path)}
	}
	if err != nil {
		return nil, "", err
	}
	if s.Header.Version < 3 {
		return nil, "", &RefusedError{Reason: fmt.Sprintf("%s is a version %d session: pi rewrites such files when it opens them and skein never rewrites one; fork it instead (skein session fork), which makes a new version 3 file", path, s.Header.Version)}
	}
	e, err := build(s)
	if err != nil {
		return nil, "", err
	}
	id = newID(s)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		// The reader found it still: a crashed writer's partial line, or
		// a last line that parses but was never ended.
		line = append(line, '\n')
	}
	line = append(line, `{"type":`...)
	line = jsjson.AppendString(line, e.Type)
	line = append(line, `,"id":`...)
	line = jsjson.AppendString(line, id)
	line = append(line, `,"parentId":`...)
	parent := e.Parent
	if parent == nil && s.Leaf() >= 0 {
		parent = &s.Entries[s.Leaf()].ID
	}
	if parent == nil {
		line = append(line, "null"...)
	} else {
		line = jsjson.AppendString(line, *parent)
	}
	line = append(line, `,"timestamp":`...)
	ts := isoNow()
	line = jsjson.AppendString(line, ts)
	fields := e.Fields
	if e.Stamped != nil {
		fields = append(fields[:len(fields):len(fields)], e.Stamped(ts)...)
	}
	line = store.AppendFields(line, fields)
	line = append(line, "}\n"...)
	return line, id, nil
}

func jsonString(s string) []byte { return jsjson.AppendString(nil, s) }

// Label sets (or, with an empty label, clears) the label of an entry, as
// pi's appendLabelChange writes it: a cleared label has no label member.
func Label(path, targetID, label string, opts ...WriteOption) (string, error) {
	return Append(path, func(s *Session) (NewEntry, error) {
		if _, ok := s.Index(targetID); !ok {
			return NewEntry{}, &RefusedError{Reason: fmt.Sprintf("%s has no entry %q", path, targetID)}
		}
		var value []byte
		if label != "" {
			value = jsonString(label)
		}
		return NewEntry{Type: TypeLabel, Fields: []Field{{Key: "targetId", Value: jsonString(targetID)}, {Key: "label", Value: value}}}, nil
	}, opts...)
}

// Rename names the session as pi's appendSessionInfo does: the name as
// SessionName stores it (an empty one clears it).
func Rename(path, name string, opts ...WriteOption) (string, error) {
	return Append(path, func(s *Session) (NewEntry, error) {
		return NewEntry{Type: TypeSessionInfo, Fields: []Field{{Key: "name", Value: jsonString(SessionName(name))}}}, nil
	}, opts...)
}

// SessionName is a name as pi 1.6.0 stores it: each run of CR and LF
// becomes one space, then the ends are trimmed as JavaScript trims
// (name.replace(/[\r\n]+/g, " ").trim()). A name is one line in pi's list.
func SessionName(name string) string {
	var b strings.Builder
	run := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '\r' || c == '\n' {
			if !run {
				b.WriteByte(' ')
			}
			run = true
			continue
		}
		run = false
		b.WriteByte(c)
	}
	return TrimJS(b.String())
}

// Fork is a session written by Fork.
type Fork struct {
	Path          string
	ID            string
	ParentSession string
	Entries       int // entries copied from the source
	Labels        int // label entries added to match the source's labels
}

// WriteFork writes a new session beside src holding the path from the root
// to entry at: a new header (uuid v7, the source's cwd, parentSession the
// source's absolute path), the source's lines for the path copied byte for
// byte (label entries on the path included), then label entries that make
// the fork's labels on the path equal the source's. The fork builds exactly
// the context the source builds at that entry; the source is not touched.
// The fork gets the source's file mode (a private session stays private)
// and appears whole or not at all (see writeNew).
func WriteFork(src string, s *Session, at int) (Fork, error) {
	abs, err := filepath.Abs(src)
	if err != nil {
		return Fork{}, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return Fork{}, err
	}
	mode := fi.Mode().Perm()
	abs = filepath.Clean(abs)
	id, err := uuid.NewV7()
	if err != nil {
		return Fork{}, err
	}
	ts := isoNow()
	dir := filepath.Dir(abs)
	name := strings.NewReplacer(":", "-", ".", "-").Replace(ts) + "_" + id.String() + ".jsonl"
	fork := Fork{Path: filepath.Join(dir, name), ID: id.String(), ParentSession: abs}

	var out []byte
	out = append(out, `{"type":"session","version":3,"id":`...)
	out = jsjson.AppendString(out, fork.ID)
	out = append(out, `,"timestamp":`...)
	out = jsjson.AppendString(out, ts)
	out = append(out, `,"cwd":`...)
	out = jsjson.AppendString(out, s.Header.Cwd)
	out = append(out, `,"parentSession":`...)
	out = jsjson.AppendString(out, abs)
	out = append(out, "}\n"...)
	path := s.Path(at)
	for _, i := range path {
		out = append(out, s.LineV3(i)...)
		out = append(out, '\n')
	}
	fork.Entries = len(path)
	// Labels: what the whole source says of each path entry, against what
	// the copied label entries alone say.
	want := s.LabelStates(s.All())
	have := s.LabelStates(path)
	taken := map[string]bool{}
	for _, i := range path {
		taken[s.Entries[i].ID] = true
	}
	parent := s.Entries[path[len(path)-1]].ID
	for _, i := range path {
		target := s.Entries[i].ID
		w, h := want[target], have[target]
		if w.Label == h.Label {
			continue
		}
		lid := newID(s)
		for taken[lid] {
			lid = newID(s)
		}
		taken[lid] = true
		out = append(out, `{"type":"label","id":`...)
		out = jsjson.AppendString(out, lid)
		out = append(out, `,"parentId":`...)
		out = jsjson.AppendString(out, parent)
		out = append(out, `,"timestamp":`...)
		out = jsjson.AppendString(out, w.Timestamp)
		out = append(out, `,"targetId":`...)
		out = jsjson.AppendString(out, target)
		if w.Label != "" {
			out = append(out, `,"label":`...)
			out = jsjson.AppendString(out, w.Label)
		}
		out = append(out, "}\n"...)
		parent = lid
		fork.Labels++
	}
	if err := writeNew(fork.Path, out, mode); err != nil {
		return Fork{}, err
	}
	return fork, nil
}
