package opencode

import (
	"os"
	"path/filepath"
	"strings"

	"skein/model"
	"skein/store"
)

// Format is OpenCode's database, as a list record names it.
const Format store.Format = "opencode"

// backend is OpenCode's database for the store, read-only: OpenCode writes
// it while it runs. It is a store.Container: a session's path is the
// database's, "#", and the session's id.
type backend struct{}

func init() { store.Register(backend{}) }

func (backend) Format() store.Format { return Format }
func (backend) Wording() store.Wording {
	return store.Wording{Agent: "OpenCode", Kind: "an OpenCode session", Folders: "~/.local/share/opencode, or $XDG_DATA_HOME/opencode"}
}
func (backend) ImportFormat() string { return "opencode" }

// Split is a session path's database and session id (false: the path
// names no session of a database). Any database file will do: OpenCode's
// forks (Kilo CLI) keep the same tables under a name of their own, and
// read through this backend (store.ContainerAlias); Claims says which
// names are OpenCode's.
func Split(path string) (db, id string, ok bool) {
	i := strings.LastIndexByte(path, '#')
	if i < 0 || i == 0 || i == len(path)-1 || strings.ContainsAny(path[i+1:], `/\`) {
		return "", "", false
	}
	return path[:i], path[i+1:], true
}

// Claims a session of an OpenCode database (<dir>/opencode.db#<id>), or
// a session file of OpenCode's older layout in its data folder
// (opencode/storage/session/<project>/<id>.json).
func (backend) Claims(path string) bool {
	if db, _, ok := Split(path); ok {
		return filepath.Base(db) == DBName
	}
	data, ok := LegacyDataDir(path)
	return ok && filepath.Base(data) == "opencode"
}

// Detect: a database is never a line of text.
func (backend) Detect([]byte, bool) bool { return false }

func (backend) ContainerName(base string) bool { return base == DBName }

// Sessions are the database's sessions, each as <db>#<id>.
func (backend) Sessions(path string) ([]string, error) {
	d, err := Load(path)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(d.Sessions))
	for i, s := range d.Sessions {
		out[i] = path + "#" + s.ID
	}
	return out, nil
}

// ContainerFiles are the database's files; for a session file of the
// older layout, the file itself (OpenCode no longer writes it).
func (backend) ContainerFiles(path string) []string {
	if _, ok := LegacyDataDir(path); ok {
		return []string{path}
	}
	if db, _, ok := Split(path); ok {
		path = db
	}
	return companions(path)
}

// Roots is where OpenCode keeps its database: $XDG_DATA_HOME/opencode,
// else ~/.local/share/opencode.
func (backend) Roots(e store.Env) []string { return []string{DataDir(os.Getenv, e.Home)} }

// DataDir is OpenCode's data folder (xdg-basedir's data, then opencode).
func DataDir(getenv func(string) string, home string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "opencode")
	}
	return filepath.Join(home, ".local", "share", "opencode")
}

// Resume: opencode --session <id> opens the session in OpenCode's TUI.
// A session of the older layout is the database's once OpenCode ran again
// (it copies them on its first run), under the same id.
func (backend) Resume(path string) (string, []string) {
	_, id, _ := Split(path)
	if _, ok := LegacyDataDir(path); ok {
		id = strings.TrimSuffix(filepath.Base(path), ".json")
	}
	return "opencode", []string{"--session", id}
}

// Open reads the session at path (<db>#<id>).
func (backend) Open(path string) (*model.Session, error) { return Open(path) }

// Open reads the session at path: <db>#<id> from its database, or a
// session file of the older layout with its messages and parts.
func Open(path string) (*model.Session, error) {
	s, err := readSession(path)
	if err != nil {
		return nil, err
	}
	info := s.Info(path)
	return model.NewSession(s, info), nil
}

// readSession is the session at path, read from its database or from the
// older layout's files.
func readSession(path string) (*Session, error) {
	if data, ok := LegacyDataDir(path); ok {
		s, err := readLegacy(path)
		if s != nil {
			s.Kilo = filepath.Base(data) != "opencode"
		}
		return s, err
	}
	db, id, ok := Split(path)
	if !ok {
		return nil, &store.NotSession{Reason: "an OpenCode session is named <folder>/opencode.db#<session id>, or is a file of storage/session/", Format: Format}
	}
	d, err := Load(db)
	if err != nil {
		return nil, err
	}
	s, ok := NewSession(d, id)
	if !ok {
		return nil, &store.NotSession{Reason: "no session " + id + " in " + db, Named: true, Format: Format}
	}
	s.Kilo = filepath.Base(db) != DBName
	return s, nil
}

func (backend) ListInfo(path string, buf []byte) ([]byte, store.Info, error) {
	s, err := readSession(path)
	if err != nil {
		return buf, store.Info{}, err
	}
	if _, ok := LegacyDataDir(path); ok && migrated(path, s.Row.ID) {
		return buf, store.Info{}, &store.PartOfSession{Reason: "OpenCode copied " + path + " into its database"}
	}
	return buf, s.Info(path), nil
}

// SessionFile: the older layout's session files are sessions (Discover
// finds them by this name); their messages' and parts' files are not.
// OpenCode names every session ses_<id>: a file of another name in a
// folder that looks like storage/session/ is left alone, so that a
// folder of anything else named on the command line is not read as
// OpenCode's.
func (backend) SessionFile(path string) bool {
	_, ok := LegacyDataDir(path)
	return ok && strings.HasPrefix(filepath.Base(path), "ses_")
}

func (backend) SessionID(path string) (string, error) {
	s, err := readSession(path)
	if err != nil {
		return "", err
	}
	return s.Row.ID, nil
}
