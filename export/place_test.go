package export

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"skein/store"
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

// An export is named after the session's name, else its first prompt (a
// demo session opened has no list record to say it), else its id.
func TestTitle(t *testing.T) {
	for _, c := range []struct{ lines, want string }{
		{`{"type":"session","version":3,"id":"01a21e4e-a400-7004-8ff7-ee953ec1719a","timestamp":"2026-11-27T18:40:00.000Z","cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-27T18:40:01.000Z","message":{"role":"user","content":"Why does the header\nlook broken?","timestamp":1}}
`, "Why does the header"},
		{`{"type":"session","version":3,"id":"01a21e4e-a400-7004-8ff7-ee953ec1719a","timestamp":"2026-11-27T18:40:00.000Z","cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-27T18:40:01.000Z","message":{"role":"user","content":"q","timestamp":1}}
{"type":"session_info","id":"a2","parentId":"a1","timestamp":"2026-11-27T18:40:02.000Z","name":"Header on mobile"}
`, "Header on mobile"},
		{`{"type":"session","version":3,"id":"01a21e4e-a400-7004-8ff7-ee953ec1719a","timestamp":"2026-11-27T18:40:00.000Z","cwd":"/w"}
`, "session 01a21e4e"},
	} {
		s, err := store.Parse([]byte(c.lines))
		if err != nil {
			t.Fatal(err)
		}
		if got := Title(s); got != c.want {
			t.Errorf("Title = %q, want %q", got, c.want)
		}
	}
}

// An export is named after the session's title and the day it began, in
// the time zone given; a long title is cut so that the day stays.
func TestSessionFileName(t *testing.T) {
	s, err := store.Parse(piSession(t, "Fix the flaky test"))
	if err != nil {
		t.Fatal(err)
	}
	// The header's 2026-05-01T10:00:00Z is already the 2nd in Tokyo.
	tokyo := time.FixedZone("JST", 9*3600)
	for loc, want := range map[*time.Location]string{time.UTC: "Fix the flaky test 2026-05-01.html", tokyo: "Fix the flaky test 2026-05-01.html"} {
		if got := SessionFileName(s, "html", loc); got != want {
			t.Errorf("%v: %q, want %q", loc, got, want)
		}
	}
	late, err := store.Parse([]byte(strings.Replace(string(piSession(t, "x")), "2026-05-01T10:00:00.000Z", "2026-05-01T20:00:00.000Z", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if got := SessionFileName(late, "md", tokyo); got != "x 2026-05-02.md" {
		t.Errorf("in Tokyo: %q", got)
	}
	long, err := store.Parse(piSession(t, strings.Repeat("word ", 60)))
	if err != nil {
		t.Fatal(err)
	}
	if got := SessionFileName(long, "md", time.UTC); len(got) > maxNameBytes || !strings.HasSuffix(got, "word 2026-05-01.md") {
		t.Errorf("a long title: %q (%d bytes)", got, len(got))
	}
}
