package export

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A title becomes a file name any system takes: no separator, no
// character Windows refuses, no control, no dot or space at the ends, at
// most maxNameBytes cut at a character.
func TestFileName(t *testing.T) {
	for _, c := range []struct{ title, want string }{
		{"Rate limiting", "Rate limiting.html"},
		{"fix a/b\\c: why? <now> \"q\" |x| *", "fix a b c why now q x.html"},
		{"  ..hidden..  ", "hidden.html"},
		{"line\nbreak\ttab\x1b[31m", "line break tab [31m.html"},
		{"", "session.html"},
		{"../../etc/passwd", "etc passwd.html"},
		{"多语言 project", "多语言 project.html"},
		{"a\u202eb\u200bc", "abc.html"},
		{strings.Repeat("é", 100), strings.Repeat("é", 60) + ".html"},
	} {
		if got := FileName(c.title, "html"); got != c.want {
			t.Errorf("FileName(%q) = %q, want %q", c.title, got, c.want)
		}
	}
}

// The default folder is Downloads, else home, and never one inside a git
// work tree (a home that is a clone of dotfiles gives the temporary
// folder).
func TestFolderIsOutsideAnyRepository(t *testing.T) {
	home := t.TempDir()
	if got := Folder(home); got != home {
		t.Errorf("no Downloads: %s, want home %s", got, home)
	}
	dl := filepath.Join(home, "Downloads")
	os.Mkdir(dl, 0o700)
	if got := Folder(home); got != dl {
		t.Errorf("%s, want %s", got, dl)
	}
	os.Mkdir(filepath.Join(dl, ".git"), 0o700)
	if got := Folder(home); got != home {
		t.Errorf("Downloads in a work tree: %s, want home", got)
	}
	os.WriteFile(filepath.Join(home, ".git"), []byte("gitdir: /elsewhere\n"), 0o600)
	if got := Folder(home); got != os.TempDir() {
		t.Errorf("home in a work tree: %s, want %s", got, os.TempDir())
	}
	if !InWorkTree(filepath.Join(dl, "deeper")) {
		t.Error("a folder under a work tree's root is in it")
	}
}
