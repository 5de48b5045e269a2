// Package kilo is Kilo CLI's sessions for the store. Kilo CLI is a fork of
// OpenCode that keeps OpenCode's SQLite database (the same session,
// message and part tables, the same JSON in them) under names of its own:
// kilo.db in ~/.local/share/kilo. OpenCode's reader reads it (through the
// registry: store.ContainerAlias), and this package says only what is
// Kilo's: its folder and database names, its name in the list, its resume
// command. FORMAT.md beside it has what differs.
package kilo

import (
	"os"
	"path/filepath"
	"strings"

	"skein/store"
)

// Format is the name of Kilo's records in the list and the indexes.
const Format store.Format = "kilo"

// The format Kilo writes: OpenCode's, whose backend registers under this
// name (store/opencode's Format, which this package may not import).
const openCode store.Format = "opencode"

// DBName is the database a release build of Kilo keeps its sessions in.
const DBName = "kilo.db"

// backend reads Kilo's sessions read-only: Kilo writes its database while
// it runs.
// A write imports the session first (into a copy skein writes).
type backend struct{ store.ContainerAlias }

var kilo = &backend{store.ContainerAlias{Alias: store.Alias{Of: openCode, ReadOnly: store.ReadOnly{
	Name: Format,
	Words: store.Wording{Agent: "Kilo CLI", Kind: "a Kilo CLI session (OpenCode's format)",
		Folders: "~/.local/share/kilo, or $XDG_DATA_HOME/kilo (or the database $KILO_DB names)"},
	ClaimsPath: claims,
	RootsOf:    roots,
	ResumeCmd:  resume,
}}}}

func init() { store.Register(kilo) }

// DataDir is Kilo's data folder (xdg-basedir's data, then kilo).
func DataDir(getenv func(string) string, home string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "kilo")
	}
	return filepath.Join(home, ".local", "share", "kilo")
}

// DB is the database Kilo opens (its storage's path()): $KILO_DB, an
// absolute path or a name in the data folder, else kilo.db there. A build
// of a channel other than latest, beta or prod keeps kilo-<channel>.db
// instead, which ContainerName knows too.
func DB(getenv func(string) string, home string) string {
	data := DataDir(getenv, home)
	if d := getenv("KILO_DB"); d != "" && d != ":memory:" {
		if filepath.IsAbs(d) {
			return d
		}
		return filepath.Join(data, d)
	}
	return filepath.Join(data, DBName)
}

// roots is Kilo's data folder, and the folder of the database $KILO_DB
// names when it is elsewhere.
func roots(e store.Env) []string {
	roots := []string{DataDir(os.Getenv, e.Home)}
	if db := DB(os.Getenv, e.Home); filepath.Dir(db) != roots[0] {
		roots = append(roots, filepath.Dir(db))
	}
	return roots
}

// ContainerName: kilo.db, a channel's kilo-<channel>.db, or the name of
// the database $KILO_DB names.
func (*backend) ContainerName(base string) bool { return containerName(base) }

func containerName(base string) bool {
	if base == DBName || strings.HasPrefix(base, "kilo-") && strings.HasSuffix(base, ".db") {
		return true
	}
	d := os.Getenv("KILO_DB")
	return d != "" && d != ":memory:" && filepath.Base(d) == base
}

// claims is Claims: a session of a Kilo database (<dir>/kilo.db#<id>), or a session
// file of the older layout OpenCode's reader also reads, in Kilo's data
// folder (kilo/storage/session/<project>/<id>.json).
func claims(path string) bool {
	if i := strings.LastIndexByte(path, '#'); i > 0 && i < len(path)-1 && !strings.ContainsAny(path[i+1:], `/\`) {
		return containerName(filepath.Base(path[:i]))
	}
	return legacyDataDir(path) == "kilo"
}

// legacyDataDir is the name of the data folder of a session file of the
// older layout (<data>/storage/session/<project>/<id>.json), "" for any
// other path.
func legacyDataDir(path string) string {
	project := filepath.Dir(path)
	session := filepath.Dir(project)
	storage := filepath.Dir(session)
	if !strings.HasSuffix(path, ".json") || filepath.Base(session) != "session" || filepath.Base(storage) != "storage" {
		return ""
	}
	return filepath.Base(filepath.Dir(storage))
}

// resume: kilo --session <id> opens the session in Kilo's TUI (as
// OpenCode's does).
func resume(path string) (string, []string) {
	id := strings.TrimSuffix(filepath.Base(path), ".json") // a file of the older layout
	if i := strings.LastIndexByte(path, '#'); i >= 0 {
		id = path[i+1:]
	}
	return "kilo", []string{"--session", id}
}
