package opencode

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"skein/store"
)

// OpenCode before its SQLite database (before 1.2) kept each record in a
// JSON file of its own under <data>/storage/: a session in
// session/<project id>/<session id>.json, its messages in
// message/<session id>/<message id>.json, each message's parts in
// part/<message id>/<part id>.json. A message's or part's file is the
// row's data with its own ids in it (id, sessionID, messageID), which the
// database's rows keep in columns. OpenCode's migration (json-migration.ts)
// copies them into the database on its first run and leaves the files
// where they were: a session the database beside them holds is the
// database's, and the list leaves its file out. OpenCode no longer writes
// these files, so a session's file is its change token.

// LegacyDataDir is the data folder of a session file of the older layout
// (<data>/storage/session/<project>/<id>.json), false for any other path.
// From the path alone.
func LegacyDataDir(path string) (string, bool) {
	base := filepath.Base(path)
	if !strings.HasSuffix(base, ".json") || strings.HasPrefix(base, ".") || len(base) == len(".json") {
		return "", false
	}
	project := filepath.Dir(path)
	session := filepath.Dir(project)
	storage := filepath.Dir(session)
	if filepath.Base(session) != "session" || filepath.Base(storage) != "storage" || filepath.Base(project) == "." {
		return "", false
	}
	return filepath.Dir(storage), true
}

// legacySession is what skein reads of a session's file.
type legacySession struct {
	ParentID  string          `json:"parentID"`
	Slug      string          `json:"slug"`
	Directory string          `json:"directory"`
	Path      string          `json:"path"`
	Title     string          `json:"title"`
	Version   string          `json:"version"`
	Revert    json.RawMessage `json:"revert"`
	Time      struct {
		Created  float64         `json:"created"`
		Updated  float64         `json:"updated"`
		Archived json.RawMessage `json:"archived"`
	} `json:"time"`
}

// legacyTime is what skein reads of a message's or part's times: the
// migration's time_created and time_updated.
type legacyTime struct {
	Time struct {
		Created float64 `json:"created"`
		Updated float64 `json:"updated"`
	} `json:"time"`
}

// readLegacy reads the session whose file is at path, with its messages'
// and parts' files, into the rows the database would hold after
// OpenCode's migration: ids from the files' names, as the migration takes
// them.
func readLegacy(path string) (*Session, error) {
	d, id, err := loadLegacy(path)
	if err != nil {
		return nil, err
	}
	s, _ := NewSession(d, id)
	return s, nil
}

func loadLegacy(path string) (*DB, string, error) {
	data, err := readRegular(path)
	if err != nil {
		return nil, "", err
	}
	var ls legacySession
	if err := json.Unmarshal(data, &ls); err != nil {
		return nil, "", &store.NotSession{Reason: "a session file of storage/session/ that is no JSON object: " + err.Error(), Format: Format}
	}
	id := strings.TrimSuffix(filepath.Base(path), ".json")
	row := SessionRow{ID: id, ParentID: ls.ParentID, Directory: ls.Directory, Path: ls.Path, Title: ls.Title, Version: ls.Version, Slug: ls.Slug,
		Created: ls.Time.Created, Updated: ls.Time.Updated, Archived: len(ls.Time.Archived) > 0 && string(ls.Time.Archived) != "null"}
	if len(ls.Revert) > 0 && string(ls.Revert) != "null" {
		row.Revert = ls.Revert
	}
	d := &DB{Sessions: []SessionRow{row}, Messages: map[string][]Row{}, Parts: map[string][]Row{}}
	storage := filepath.Dir(filepath.Dir(filepath.Dir(path)))
	msgs, err := legacyRows(filepath.Join(storage, "message", id), id)
	if err != nil {
		return nil, "", err
	}
	d.Messages[id] = msgs
	for _, m := range msgs {
		parts, err := legacyRows(filepath.Join(storage, "part", m.ID), m.ID)
		if err != nil {
			return nil, "", err
		}
		if len(parts) > 0 {
			d.Parts[m.ID] = parts
		}
	}
	return d, id, nil
}

// legacyRows are the records of a folder of the older layout (a session's
// messages, a message's parts) in the order of their ids; a folder that is
// not there holds none. A file that is no JSON is a row of no data.
func legacyRows(dir, owner string) ([]Row, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") || !e.Type().IsRegular() {
			continue
		}
		data, err := readRegular(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		var t legacyTime
		_ = json.Unmarshal(data, &t) // a record without times is at 0
		rows = append(rows, Row{ID: strings.TrimSuffix(name, ".json"), Owner: owner, Created: t.Time.Created, Updated: t.Time.Updated, Data: data})
	}
	slices.SortFunc(rows, func(a, b Row) int { return strings.Compare(a.ID, b.ID) })
	return rows, nil
}

// readRegular reads a regular file whole (never a pipe or a device, which
// would wait or never end), of at most 256 MiB.
func readRegular(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > 256<<20 {
		return nil, &store.NotSession{Reason: path + " is not a regular file of at most 256 MiB", Named: true, Format: Format}
	}
	return os.ReadFile(path)
}

// migrated reports whether the database beside the older layout's files
// (<data>/<name of data>.db: opencode/opencode.db, kilo/kilo.db) holds the
// session of that id: OpenCode copied it there, and reads it there.
func migrated(path, id string) bool {
	data, ok := LegacyDataDir(path)
	if !ok {
		return false
	}
	db := filepath.Join(data, filepath.Base(data)+".db")
	if _, err := os.Stat(db); err != nil {
		return false
	}
	d, err := Load(db)
	if err != nil {
		return false
	}
	_, ok = d.Session(id)
	return ok
}
