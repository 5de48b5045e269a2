package export

import (
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"skein/model"
)

// Where an export goes from the TUI. It went into the folder skein was
// started in, named skein-<id>: a git clone gained untracked files, and
// the name said nothing of the session. The TUI asks, with a default from
// these.

// maxNameBytes bounds a file name made from a title: most file systems
// take 255 bytes, and the extension and a number need a few.
const maxNameBytes = 120

// FileName is a file name for the export of a session titled title, with
// the extension ext: the title with what a file name cannot hold on any
// system (/ \ : * ? " < > |, control characters) as spaces, runs of
// spaces one, format characters (bidi, zero-width) dropped, no dot or space at either end, cut at a character to at
// most maxNameBytes; "session" when nothing is left.
func FileName(title, ext string) string {
	var b strings.Builder
	space := false
	for _, r := range title {
		if unicode.In(r, unicode.Cf) {
			continue // bidi and zero-width marks: dropped, not spaces
		}
		if r == utf8.RuneError || unicode.IsControl(r) || strings.ContainsRune(`/\:*?"<>|`, r) || unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if b.Len()+utf8.RuneLen(r) > maxNameBytes {
			break
		}
		b.WriteRune(r)
	}
	name := strings.Trim(b.String(), ". ")
	if name == "" {
		name = "session"
	}
	return name + "." + ext
}

// SessionFileName is the name an export of s goes to by default: its
// title and the day it began, in loc (a safe file name, FileName's), as
// "Fix the flaky test 2026-03-31.html".
func SessionFileName(s *model.Session, ext string, loc *time.Location) string {
	name := strings.TrimSuffix(FileName(Title(s), "x"), ".x")
	if n := maxNameBytes - len(" 2006-01-02.") - len(ext); len(name) > n {
		name = strings.ToValidUTF8(name[:n], "")
		if k := strings.LastIndexByte(name, ' '); k > n/2 {
			name = name[:k] // at a word's end
		}
		name = strings.TrimRight(name, ". ")
	}
	if ms := s.Info.Created; ms > 0 && ms == ms { // NaN: no creation time
		name += " " + time.UnixMilli(int64(ms)).In(loc).Format("2006-01-02")
	}
	return name + "." + ext
}

// Folder is where an export goes unless the user says otherwise: home's
// Downloads folder when there is one, else home; never a folder inside a
// git work tree (whose clone would gain an untracked file), the system's
// temporary folder then.
func Folder(home string) string {
	if home != "" {
		for _, dir := range []string{filepath.Join(home, "Downloads"), home} {
			if fi, err := os.Stat(dir); err == nil && fi.IsDir() && !InWorkTree(dir) {
				return dir
			}
		}
	}
	return os.TempDir()
}

// InWorkTree reports whether dir is inside a git work tree: it or a
// folder above it holds .git (a folder, or a worktree's file).
func InWorkTree(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for {
		if _, err := os.Lstat(filepath.Join(abs, ".git")); err == nil {
			return true
		}
		up := filepath.Dir(abs)
		if up == abs {
			return false
		}
		abs = up
	}
}

// Title is what an export of s is named after: the session's name, else
// what its list shows for it (its first prompt's first line), else its
// short id.
func Title(s *model.Session) string {
	for _, t := range []string{s.Name(), s.Info.Name, s.Info.FirstMessage} {
		if strings.TrimSpace(t) != "" && t != "(no messages)" {
			return t
		}
	}
	for i := range s.Len() {
		if e := s.Entry(i); e.Kind == model.EntryMessage && e.Role == model.RoleUser {
			msg := s.EntryMessage(i)
			if line, _, _ := strings.Cut(strings.TrimSpace(msg.Text("\n")), "\n"); line != "" {
				return line
			}
		}
	}
	return "session " + model.ShortID(s.Info.ID)
}
