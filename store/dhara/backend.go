package dhara

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"skein/internal/jscan"
	"skein/model"
	"skein/store"
)

// backend is the second seed's format for the store: a session is a
// folder.
type backend struct{}

func init() { store.Register(backend{}) }

// files are the files of a session folder: live follow watches them, and
// their stats make the session's change token.
var sessionFolderFiles = []string{MetaFile, TreeFile, EntriesFile, ArchiveFile}

func (backend) Format() store.Format { return store.FormatDhara }
func (backend) Wording() store.Wording {
	return store.Wording{
		Agent:   "Dhara",
		Kind:    "a Dhara session folder",
		Folders: "~/.dhara/sessions, or $DHARA_HOME/sessions",
		Fork:    "A new branch of this session will hold the %d entries from the first to this one; tree.json gets it, no entry is written, and the agent resumes on it.",
		Rename:  "The title in the session's meta.json. An empty name clears it.",
		Delete:  "The session's folder moves to the trash with all its branches (a desktop can restore it).",
	}
}

// Detect: a session is a folder, never a line of a file.
func (backend) Detect([]byte, bool) bool { return false }

func (backend) IsSessionFolder(dir string) bool { return IsSession(dir) }
func (backend) FolderFiles() []string           { return sessionFolderFiles }

// Roots is Dhara's sessions folder ($DHARA_HOME/sessions, else
// ~/.dhara/sessions).
func (backend) Roots(e store.Env) []string { return []string{e.DharaSessionRoot()} }

// Claims a folder that holds a Dhara session (IsSession: an
// entries.jsonl, else a meta.json of Dhara's): pi's sessions are files,
// every .jsonl path is pi's (or another file format's), and another
// format's sessions may be folders too (Copilot CLI's). The screens ask a
// record's backend by its format (ForFormat), never by its path.
func (backend) Claims(path string) bool {
	return !strings.HasSuffix(path, ".jsonl") && IsSession(path)
}

// No Resume: the real Dhara agent reads only its own one-file sessions
// (FORMATS.md §2).

func (backend) Open(path string) (*model.Session, error) {
	s, err := Open(path)
	if err != nil {
		return nil, domainErr(err)
	}
	return sessionAt(path, s), nil
}

func (backend) OpenTail(path string, tail int64) (*model.Session, error) {
	s, err := OpenTail(path, tail)
	if err != nil {
		return nil, domainErr(err)
	}
	return sessionAt(path, s), nil
}

func sessionAt(path string, s *Session) *model.Session {
	return s.Domain(model.SessionInfo{Path: path, Format: string(store.FormatDhara)})
}

// dharaErr gives a folder that is not a session the store's error for one.
func domainErr(err error) error {
	var ns *NotSessionError
	if errors.As(err, &ns) {
		return &store.NotSession{Reason: ns.Reason}
	}
	return err
}

func (backend) ListInfo(path string, buf []byte) ([]byte, store.Info, error) {
	info, err := listInfo(path)
	return buf, info, err
}

func listInfo(path string) (store.Info, error) {
	info, err := ListInfo(path, store.ModTimeMs(path))
	return info, domainErr(err)
}

func (backend) Label(path, id, text string, _ ...store.WriteOption) (string, error) {
	id, err := Label(path, id, text)
	return id, writeErr(err)
}

func (backend) Rename(path, name string, _ ...store.WriteOption) (string, error) {
	return "", writeErr(Rename(path, name))
}

// Fork adds a branch to the session's tree.json: a Dhara fork stays in its
// session.
func (backend) Fork(path string, s *model.Session, at int) (store.Forked, error) {
	f, err := Fork(path, s.Entry(at).ID)
	if err != nil {
		return store.Forked{}, writeErr(err)
	}
	return store.Forked{Path: path, ID: s.Info.ID, Entries: f.Entries, Branch: f.Branch, ParentBranch: f.ParentBranch, SameSession: true}, nil
}

// Append adds what build makes as a Dhara entry after its parent (the
// active leaf when none): its type and fields, as they are.
func (backend) Append(path string, build func(*model.Session) (store.NewEntry, error), _ ...store.WriteOption) (string, error) {
	id, err := Append(path, func(now *Session) (string, string, []Field, error) {
		e, err := build(sessionAt(path, now))
		if err != nil {
			return "", "", nil, err
		}
		parent := ""
		if e.Parent != nil {
			parent = *e.Parent
		}
		var fields []Field
		for _, f := range e.Fields {
			fields = append(fields, Field{Key: f.Key, Value: f.Value})
		}
		return e.Type, parent, fields, nil
	})
	return id, writeErr(err)
}

// Compact appends a compaction entry over the plan's range, its tool
// results preserved, then moves what it replaced to the archive.
func (backend) Compact(path string, c model.Compaction, check func(*model.Session) (string, error), _ ...store.WriteOption) (string, error) {
	from := Of(c.From)
	if from == nil || c.Plan == nil {
		return "", store.ErrUnsupported
	}
	ids, preserved := from.Range(c.Plan)
	var usage []byte
	if u := c.Usage; u != nil {
		usage = compactionUsage(u)
	}
	id, err := Compact(path, Compaction{Summary: c.Summary, EntryIDs: ids, PreservedIDs: preserved,
		TokensBefore: c.TokensBefore, ReadFiles: c.ReadFiles, Modified: c.ModifiedFiles, Usage: usage},
		func(now *Session) (string, error) { return check(sessionAt(path, now)) })
	return id, writeErr(err)
}

// dharaWriteErr gives a refusal the store's type.
func writeErr(err error) error {
	var r *RefusedError
	if errors.As(err, &r) {
		return &store.RefusedError{Reason: r.Reason}
	}
	return domainErr(err)
}

// SessionID is meta.json's id, else the folder's name (meta.json alone is
// read: the tree of a large session is 16 MB).
func (backend) SessionID(path string) (string, error) {
	if !IsSession(path) {
		return "", &store.NotSession{Reason: path + " is not a Dhara session folder"}
	}
	if id := MetaID(path); id != "" {
		return id, nil
	}
	return filepath.Base(path), nil
}

// Trashable is a session folder, not a link to one.
func (backend) Trashable(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.IsDir() || !IsSession(path) {
		return store.RefuseTrash("%s is not a Dhara session folder (no %s, and no %s with an id and a formatVersion)", path, EntriesFile, MetaFile)
	}
	if ok, other := OnlySessionFiles(path); !ok {
		return store.RefuseTrash("%s holds %s, which is no part of a Dhara session", path, other)
	}
	return nil
}

func (backend) SessionName(name string) string { return SessionName(name) }

func (backend) Check(path string) ([]model.Diagnostic, store.Format, error) {
	d, err := Check(path)
	return d, store.FormatDhara, domainErr(err)
}

// DharaModel is the session s, of any format, in Dhara's model: what an
// import into Dhara writes and the json export prints. extra are members
// for meta.json (raw JSON values).
func Model(s *model.Session, now time.Time, extra map[string][]byte) Built {
	// A Dhara session is its own files: the archive's entries, then the
	// working file's, as stored.
	if len(extra) == 0 {
		if b, ok := ownDhara(s); ok {
			return b
		}
	}
	var fields []Field
	for _, k := range sortedKeys(extra) {
		fields = append(fields, Field{Key: k, Value: extra[k]})
	}
	return FromSession(s, now, fields)
}

// ownDhara is a Dhara session's own files in Dhara's model: the archive's
// entries, then the working file's, as stored (false: s is not a Dhara
// session whose meta.json and tree.json are valid JSON).
func ownDhara(s *model.Session) (Built, bool) {
	d := Of(s)
	if d == nil || !jscan.Valid(d.Meta.Raw) || !jscan.Valid(d.Tree.Raw) {
		return Built{}, false
	}
	b := Built{ID: d.Meta.ID, Meta: compactJSON(d.Meta.Raw), Tree: compactJSON(d.Tree.Raw)}
	for _, archived := range []bool{true, false} {
		for k := range d.Entries {
			if e := &d.Entries[k]; e.Archived == archived && jscan.Valid(e.Raw) {
				b.Entries = append(b.Entries, e.Raw)
			}
		}
	}
	return b, true
}

// WriteJSONOf writes Model(s, now, nil) as one JSON document (see
// Document): what the json export prints. A session made over into
// Dhara's model has its entries written as they are made, never all held.
func WriteJSONOf(w io.Writer, s *model.Session, now time.Time) error {
	if b, ok := ownDhara(s); ok {
		// A Dhara session's lines are its own, already in memory.
		return Document(w, b.Meta, func(w io.Writer) error {
			for k, l := range b.Entries {
				sep := ",\n"
				if k == 0 {
					sep = "\n"
				}
				if _, err := io.WriteString(w, sep); err != nil {
					return err
				}
				if _, err := w.Write(l); err != nil {
					return err
				}
			}
			return nil
		}, func() []byte { return b.Tree })
	}
	return WriteJSON(w, s, now)
}

// WriteDhara writes a built session as a new folder in root (whole or not
// at all) and returns its path.

// compactJSON is a valid JSON document without its insignificant space.
func compactJSON(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
