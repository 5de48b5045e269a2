package store

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Trashed says where a file went.
type Trashed struct {
	File, Info string
}

// Trash moves a session file to the user's trash as the freedesktop.org
// trash specification says, so that desktop tools can restore it: the home
// trash ($XDG_DATA_HOME/Trash, else ~/.local/share/Trash) when the file is on
// the same file system, else $topdir/.Trash-$uid. The .trashinfo is written
// first, exclusively; then the file is renamed into files/. When no trash
// takes it by a rename, it is copied into the home trash, synced, and only
// then removed (moveByCopy); a file that cannot be moved stays where it is. Only a session
// file moves: a folder, a file that is not a pi session, or a symbolic link
// is refused (a link would go to the trash while its session stayed).
// env.Trash, when set, is the one trash used (the demo's).
func Trash(path string, env Env) (Trashed, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Trashed{}, err
	}
	if err := trashable(abs); err != nil {
		return Trashed{}, err
	}
	home := os.Getenv("XDG_DATA_HOME")
	if home == "" {
		home = filepath.Join(env.Home, ".local", "share")
	}
	dirs := []string{filepath.Join(home, "Trash")}
	if env.Trash != "" {
		dirs = []string{env.Trash}
	} else if top := trashFS.MountTop(abs); top != "" {
		dirs = append(dirs, filepath.Join(top, ".Trash-"+strconv.Itoa(os.Getuid())))
	}
	var errs []error
	for _, dir := range dirs {
		t, err := trashInto(dir, abs, trashFS.Rename)
		if err == nil {
			return t, nil
		}
		errs = append(errs, err)
	}
	// No trash takes it by a rename (it is on another file system than
	// the home trash, and its own file system's top folder is not the
	// user's to write): copied into the home trash and synced, then
	// removed, as desktop trash implementations do.
	t, err := trashInto(dirs[0], abs, moveByCopy)
	var partly *partlyMoved
	if err == nil || errors.As(err, &partly) {
		return t, err
	}
	errs = append(errs, err)
	return Trashed{}, fmt.Errorf("cannot move %s to the trash: %w", path, errors.Join(errs...))
}

// trashFS is what Trash calls that tests fail.
var trashFS = struct {
	Rename   func(old, new string) error
	MountTop func(path string) string
}{os.Rename, mountTop}

// trashable refuses what delete must not move.
func trashable(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		target, _ := filepath.EvalSymlinks(path)
		return refuseTrash("%s is a symbolic link to %s (delete that file instead)", path, target)
	}
	return trashRefusal(find(path), path)
}

// refuseTrash is delete's refusal of a path.
func refuseTrash(format string, a ...any) error {
	return &RefusedError{Reason: fmt.Sprintf(format, a...) + "; skein moves only session files to the trash"}
}

// nameMax is the longest file name most file systems take (NAME_MAX).
const nameMax = 255

// trashName is the name of the n-th try at a free name for base in the
// trash: base, then stem.n.ext; the stem is cut, at a character's start, so
// that the name's .trashinfo fits in nameMax. The .trashinfo keeps the full
// original path.
func trashName(base string, n int) string {
	ext := filepath.Ext(base)
	if len(ext) > 16 {
		ext = "" // not an extension, only a dot in a long name
	}
	stem := strings.TrimSuffix(base, ext)
	suffix := ext
	if n > 1 {
		suffix = "." + strconv.Itoa(n) + ext
	}
	room := nameMax - len(".trashinfo") - len(suffix)
	if len(stem) > room {
		cut := room
		for cut > 0 && !utf8.RuneStart(stem[cut]) {
			cut--
		}
		stem = stem[:cut]
	} else if n == 1 {
		return base
	}
	return stem + suffix
}

// trashInto moves abs into the trash at dir with move, its .trashinfo
// written first.
func trashInto(dir, abs string, move func(src, dst string) error) (Trashed, error) {
	files, info := filepath.Join(dir, "files"), filepath.Join(dir, "info")
	for _, d := range []string{files, info} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return Trashed{}, err
		}
	}
	base := filepath.Base(abs)
	for n := 1; n < 10000; n++ {
		name := trashName(base, n)
		infoPath := filepath.Join(info, name+".trashinfo")
		f, err := os.OpenFile(infoPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return Trashed{}, err
		}
		// The path is URL-escaped, the date local time without a zone.
		body := "[Trash Info]\nPath=" + escapePath(abs) + "\nDeletionDate=" + time.Now().Format("2006-01-02T15:04:05") + "\n"
		_, werr := f.WriteString(body)
		serr := f.Sync()
		cerr := f.Close()
		if err := errors.Join(werr, serr, cerr); err != nil {
			os.Remove(infoPath)
			return Trashed{}, err
		}
		dest := filepath.Join(files, name)
		if _, err := os.Lstat(dest); err == nil {
			os.Remove(infoPath)
			continue
		}
		if err := move(abs, dest); err != nil {
			var partly *partlyMoved
			if errors.As(err, &partly) {
				return Trashed{File: dest, Info: infoPath}, err // the copy stays, restorable
			}
			os.RemoveAll(dest) // a copy a failed move made goes; the file stays where it was
			os.Remove(infoPath)
			return Trashed{}, err
		}
		return Trashed{File: dest, Info: infoPath}, nil
	}
	return Trashed{}, errors.New("no free name in the trash")
}

// escapePath URL-escapes each segment of an absolute path.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// mountTop is the top of the file system path is on, or "" when it is the
// home trash's.
func mountTop(path string) string {
	dev, ok := device(path)
	if !ok {
		return ""
	}
	dir := filepath.Dir(path)
	for {
		parent := filepath.Dir(dir)
		if pdev, ok := device(parent); parent == dir || !ok || pdev != dev {
			return dir
		}
		dir = parent
	}
}
