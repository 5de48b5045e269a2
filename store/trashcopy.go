package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"skein/internal/filelock"
	"skein/internal/safewrite"
	"skein/internal/stamp"
)

// moveByCopy moves a session file or a Dhara folder (regular files only)
// to dst on another file system: copied under a temporary name beside dst,
// each file synced, renamed to dst, then the source removed, but only when
// nothing of it changed while it was copied (a writer still at work keeps
// its session, and the copy goes). A failure before the removal leaves the
// source as it was and no copy.
func moveByCopy(src, dst string) error {
	if err := removable(src); err != nil {
		return fmt.Errorf("%s cannot be removed from where it is: %w", src, err)
	}
	removeStaleCopies(filepath.Dir(dst))
	before, err := stamps(src)
	if err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(dst), copyPrefix+strconv.Itoa(os.Getpid())+"-"+filepath.Base(dst))
	if err := copyTree(src, tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := trashFS.Rename(tmp, dst); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	_ = safewrite.SyncDir(filepath.Dir(dst))
	after, err := stamps(src)
	if err != nil || !sameStamps(before, after) {
		os.RemoveAll(dst)
		if err == nil {
			err = fmt.Errorf("%s changed while it was copied to the trash (a program is still writing it); it stays where it is", src)
		}
		return err
	}
	if err := removeSource(src, before); err != nil {
		return err
	}
	_ = safewrite.SyncDir(filepath.Dir(src))
	return nil
}

// copyPrefix starts the name of a copy into the trash still being made.
const copyPrefix = ".skein-copy-"

// removeStaleCopies removes the copies into the trash folder dir that a
// skein killed midway left (their pid no longer a process).
func removeStaleCopies(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), copyPrefix)
		if !ok {
			continue
		}
		num, _, _ := strings.Cut(rest, "-")
		if pid, err := strconv.Atoi(num); err == nil && pid > 0 && pid != os.Getpid() && !filelock.Alive(pid) {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// partlyMoved says a folder's copy is whole in the trash but only some of
// its files could be removed from where it was: the trash keeps the copy,
// with its .trashinfo, so that it can be restored.
type partlyMoved struct{ err error }

func (e *partlyMoved) Error() string { return e.err.Error() }
func (e *partlyMoved) Unwrap() error { return e.err }

// removeSource removes the copied session: a file at once; a folder's
// files one by one, then the folder. When nothing could be removed the
// copy in the trash goes again (the caller's dst), as if nothing happened.
func removeSource(src string, files map[string]fileStamp) error {
	fi, err := os.Lstat(src)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return os.Remove(src)
	}
	removed := 0
	for p := range files {
		if err := os.Remove(p); err != nil {
			if removed == 0 {
				return err
			}
			return &partlyMoved{fmt.Errorf("%s was copied to the trash but only %d of its %d files could be removed: %w", src, removed, len(files), err)}
		}
		removed++
	}
	if err := os.RemoveAll(src); err != nil {
		return &partlyMoved{fmt.Errorf("%s was copied to the trash, its files removed, but not the folder: %w", src, err)}
	}
	return nil
}

// fileStamp is what tells that a file changed: its size, modification and
// change times.
type fileStamp struct {
	size         int64
	mtime, ctime int64
}

// stamps are the stamps of path's files: path itself, or each file of a
// folder by its name. Anything but a regular file or a folder of them is
// refused.
func stamps(path string) (map[string]fileStamp, error) {
	out := map[string]fileStamp{}
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir():
			return nil
		case !fi.Mode().IsRegular():
			return fmt.Errorf("%s is not a regular file; skein does not copy it to the trash", p)
		}
		in, _ := stamp.ChangeTime(fi)
		out[p] = fileStamp{fi.Size(), fi.ModTime().UnixNano(), in.CtimeNs}
		return nil
	})
	return out, err
}

func sameStamps(a, b map[string]fileStamp) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// copyTree copies a regular file, or a folder of them, to dst (which must
// not exist), each file synced, with its mode.
func copyTree(src, dst string) error {
	fi, err := os.Lstat(src)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return copyFile(src, dst, fi.Mode().Perm())
	}
	if err := os.Mkdir(dst, fi.Mode().Perm()|0o700); err != nil {
		return err
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if err := copyTree(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	return safewrite.SyncDir(dst)
}

// copyFile copies src to dst, which it makes (never replacing a file),
// synced, with mode perm; a failure once dst is made removes it.
func copyFile(src, dst string, perm fs.FileMode) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Sync()
	}
	if err = errors.Join(err, out.Close()); err != nil {
		os.Remove(dst) // made here: a part of a copy goes
	}
	return err
}
