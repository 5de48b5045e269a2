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
// names no session of a database).
func Split(path string) (db, id string, ok bool) {
	i := strings.LastIndexByte(path, '#')
	if i < 0 || i == len(path)-1 || strings.ContainsAny(path[i+1:], `/\`) {
		return "", "", false
	}
	return path[:i], path[i+1:], filepath.Base(path[:i]) == DBName
}

// Claims a session of an OpenCode database: <dir>/opencode.db#<id>.
func (backend) Claims(path string) bool {
	_, _, ok := Split(path)
	return ok
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

func (backend) ContainerFiles(path string) []string {
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
func (backend) Resume(path string) (string, []string) {
	_, id, _ := Split(path)
	return "opencode", []string{"--session", id}
}

// Open reads the session at path (<db>#<id>).
func (backend) Open(path string) (*model.Session, error) { return Open(path) }

// Open reads the session at path (<db>#<id>) from its database.
func Open(path string) (*model.Session, error) {
	s, err := readSession(path)
	if err != nil {
		return nil, err
	}
	info := s.Info(path)
	return model.NewSession(s, info), nil
}

// readSession is the session at path, read from its database.
func readSession(path string) (*Session, error) {
	db, id, ok := Split(path)
	if !ok {
		return nil, &store.NotSession{Reason: "an OpenCode session is named <folder>/opencode.db#<session id>", Format: Format}
	}
	d, err := Load(db)
	if err != nil {
		return nil, err
	}
	s, ok := NewSession(d, id)
	if !ok {
		return nil, &store.NotSession{Reason: "no session " + id + " in " + db, Named: true, Format: Format}
	}
	return s, nil
}

func (backend) ListInfo(path string, buf []byte) ([]byte, store.Info, error) {
	s, err := readSession(path)
	if err != nil {
		return buf, store.Info{}, err
	}
	return buf, s.Info(path), nil
}

func (backend) SessionID(path string) (string, error) {
	s, err := readSession(path)
	if err != nil {
		return "", err
	}
	return s.Row.ID, nil
}
