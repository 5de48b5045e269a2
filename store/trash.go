package store

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Trashed says where a file went.
type Trashed struct {
	File, Info string
}

// Trash moves a file to the user's trash as the freedesktop.org trash
// specification says, so that desktop tools can restore it: the home trash
// ($XDG_DATA_HOME/Trash, else ~/.local/share/Trash) when the file is on the
// same file system, else $topdir/.Trash-$uid. The .trashinfo is written first,
// exclusively; then the file is renamed into files/. Nothing is unlinked: a
// file that cannot be moved stays where it is.
func Trash(path string, env Env) (Trashed, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Trashed{}, err
	}
	if _, err := os.Lstat(abs); err != nil {
		return Trashed{}, err
	}
	home := os.Getenv("XDG_DATA_HOME")
	if home == "" {
		home = filepath.Join(env.Home, ".local", "share")
	}
	dirs := []string{filepath.Join(home, "Trash")}
	if top := mountTop(abs); top != "" {
		dirs = append(dirs, filepath.Join(top, ".Trash-"+strconv.Itoa(os.Getuid())))
	}
	var errs []error
	for _, dir := range dirs {
		t, err := trashInto(dir, abs)
		if err == nil {
			return t, nil
		}
		errs = append(errs, err)
	}
	return Trashed{}, fmt.Errorf("cannot move %s to the trash: %w", path, errors.Join(errs...))
}

func trashInto(dir, abs string) (Trashed, error) {
	files, info := filepath.Join(dir, "files"), filepath.Join(dir, "info")
	for _, d := range []string{files, info} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return Trashed{}, err
		}
	}
	base := filepath.Base(abs)
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	for n := 1; n < 10000; n++ {
		name := base
		if n > 1 {
			name = fmt.Sprintf("%s.%d%s", stem, n, ext)
		}
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
		if err := os.Rename(abs, dest); err != nil {
			os.Remove(infoPath) // the file stays where it was
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
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil {
		return ""
	}
	dev := st.Dev
	dir := filepath.Dir(path)
	for {
		parent := filepath.Dir(dir)
		var pst syscall.Stat_t
		if parent == dir || syscall.Stat(parent, &pst) != nil || pst.Dev != dev {
			return dir
		}
		dir = parent
	}
}
