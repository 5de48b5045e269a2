package opencode

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	_ "modernc.org/sqlite" // pure Go: no cgo, builds for every platform
)

// What skein reads of OpenCode's database, without touching it: SQLite
// writes even a read-only connection's -shm beside the database, so the
// database and its -wal are copied into a private folder (again when
// their stats moved during the copy), the copy is read whole and removed,
// and what was read is kept in memory while the files stat as they did.

// DBName is the name OpenCode gives its database.
const DBName = "opencode.db"

// companions are the files of a database skein copies and stats: the
// database and its write-ahead log (not its -shm, which is the readers'
// and writers' shared memory, rebuilt from the log).
func companions(db string) []string { return []string{db, db + "-wal"} }

// Row is a message or a part as stored: its id, what it belongs to (a
// message's session, a part's message), its times (ms) and its data, the
// JSON text without the row's own ids.
type Row struct {
	ID, Owner        string
	Created, Updated float64
	Data             []byte
}

// SessionRow is a row of the session table.
type SessionRow struct {
	ID, ParentID, Directory, Title, Version, Slug string
	Path                                          string // the directory below the worktree
	Created, Updated                              float64
	Archived                                      bool
	Revert                                        []byte // JSON, nil for none
}

// DB is what skein read of one database: its sessions in the order of
// their ids, and each one's messages and parts in theirs.
type DB struct {
	Sessions []SessionRow
	Messages map[string][]Row // by session id
	Parts    map[string][]Row // by message id
}

// Session is the session of that id, false for none.
func (d *DB) Session(id string) (*SessionRow, bool) {
	i := slices.IndexFunc(d.Sessions, func(s SessionRow) bool { return s.ID == id })
	if i < 0 {
		return nil, false
	}
	return &d.Sessions[i], true
}

// statKey is the files' stats: size and modification time, each, with
// whether it is there.
func statKey(files []string) string {
	var b strings.Builder
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			b.WriteString("-;")
			continue
		}
		fmt.Fprintf(&b, "%d:%d:%v;", fi.Size(), fi.ModTime().UnixNano(), fi.Mode())
	}
	return b.String()
}

type cached struct {
	key string
	db  *DB
}

var (
	cacheMu sync.Mutex
	cache   = map[string]cached{}
)

// Load is the database at path as it is now: read again only when its
// files' stats moved since it was read last.
func Load(path string) (*DB, error) {
	files := companions(path)
	key := statKey(files)
	cacheMu.Lock()
	c, ok := cache[path]
	cacheMu.Unlock()
	if ok && c.key == key {
		return c.db, nil
	}
	db, key, err := readCopy(path)
	if err != nil {
		return nil, err
	}
	cacheMu.Lock()
	cache[path] = cached{key, db}
	cacheMu.Unlock()
	return db, nil
}

// readCopy copies the database and its log into a private folder, reads
// the copy and removes it. The key is the files' stats the copy was made
// at: a copy during which they moved is made again (a few times).
func readCopy(path string) (*DB, string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, "", err
	}
	if !fi.Mode().IsRegular() {
		return nil, "", &os.PathError{Op: "read", Path: path, Err: errors.New("not a regular file")}
	}
	dir, err := os.MkdirTemp("", "skein-opencode-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(dir)
	files := companions(path)
	var key string
	for try := 0; ; try++ {
		key = statKey(files)
		for _, f := range files {
			if err := copyFile(f, filepath.Join(dir, filepath.Base(f))); err != nil {
				return nil, "", err
			}
		}
		if statKey(files) == key || try == 4 {
			break
		}
	}
	db, err := readDB(filepath.Join(dir, filepath.Base(path)))
	return db, key, err
}

// copyFile copies src to dst; a src that is not there is no copy.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// readDB reads a copy of a database whole.
func readDB(path string) (*DB, error) {
	conn, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(1000)")
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	conn.SetMaxOpenConns(1)
	d := &DB{Messages: map[string][]Row{}, Parts: map[string][]Row{}}
	// path (the directory below the project's worktree) came after the
	// first databases: one without it reads as "".
	const sessions = `SELECT id, COALESCE(parent_id, ''), directory, title, version, slug,
		time_created, time_updated, time_archived IS NOT NULL, revert, %s FROM session ORDER BY id`
	rows, err := conn.Query(fmt.Sprintf(sessions, "COALESCE(path, '')"))
	if err != nil {
		rows, err = conn.Query(fmt.Sprintf(sessions, "''"))
	}
	if err != nil {
		return nil, notOpenCode(err)
	}
	for rows.Next() {
		var s SessionRow
		var created, updated sql.NullFloat64
		var revert sql.NullString
		if err := rows.Scan(&s.ID, &s.ParentID, &s.Directory, &s.Title, &s.Version, &s.Slug, &created, &updated, &s.Archived, &revert, &s.Path); err != nil {
			rows.Close()
			return nil, err
		}
		s.Created, s.Updated = created.Float64, updated.Float64
		if revert.Valid && revert.String != "" && revert.String != "null" {
			s.Revert = []byte(revert.String)
		}
		d.Sessions = append(d.Sessions, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := readRows(conn, `SELECT id, session_id, time_created, time_updated, data FROM message ORDER BY id`, d.Messages); err != nil {
		return nil, err
	}
	if err := readRows(conn, `SELECT id, message_id, time_created, time_updated, data FROM part ORDER BY id`, d.Parts); err != nil {
		return nil, err
	}
	return d, nil
}

// readRows reads a table of rows (id, owner, times, data) into by, by
// their owner, in the order of their ids.
func readRows(conn *sql.DB, query string, by map[string][]Row) error {
	rows, err := conn.Query(query)
	if err != nil {
		return notOpenCode(err)
	}
	defer rows.Close()
	for rows.Next() {
		var r Row
		var owner string
		var created, updated sql.NullFloat64
		var data sql.RawBytes
		if err := rows.Scan(&r.ID, &owner, &created, &updated, &data); err != nil {
			return err
		}
		r.Created, r.Updated = created.Float64, updated.Float64
		r.Data = slices.Clone([]byte(data))
		r.Owner = owner
		by[owner] = append(by[owner], r)
	}
	return rows.Err()
}

// notOpenCode says a database lacks OpenCode's tables.
func notOpenCode(err error) error {
	return fmt.Errorf("%w (%v)", ErrNotSession, err)
}

// ErrNotSession says a path is not an OpenCode session.
var ErrNotSession = errors.New("not an OpenCode database")
