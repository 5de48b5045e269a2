package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"skein/store"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"skein/store/pi"
)

const header = `{"type":"session","version":3,"id":"019cadc6-9a80-7550-a789-649ae3e60458","timestamp":"2026-03-02T09:00:00.000Z","cwd":"/home/dev/webapp"}` + "\n"

func TestTrashMovesWithTrashInfo(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	dir := filepath.Join(home, "sessions", "--a b--")
	os.MkdirAll(dir, 0o755)
	src := filepath.Join(dir, "s 1.jsonl")
	// Twice the same name: the second gets another.
	var got []store.Trashed
	for i := 0; i < 2; i++ {
		os.WriteFile(src, []byte(header), 0o644)
		tr, err := store.Trash(src, store.Env{Home: home})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, tr)
		if _, err := os.Stat(src); !os.IsNotExist(err) {
			t.Error("the file is still there")
		}
		if data, err := os.ReadFile(tr.File); err != nil || string(data) != header {
			t.Errorf("trashed file %v %q", err, data)
		}
		info, err := os.ReadFile(tr.Info)
		if err != nil {
			t.Fatal(err)
		}
		abs, _ := filepath.Abs(src)
		want := "[Trash Info]\nPath=" + strings.ReplaceAll(abs, " ", "%20") + "\nDeletionDate="
		if !strings.HasPrefix(string(info), want) || !regexp.MustCompile(`DeletionDate=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\n$`).Match(info) {
			t.Errorf("trashinfo:\n%s", info)
		}
		if filepath.Dir(tr.File) != filepath.Join(home, "data", "Trash", "files") || filepath.Base(tr.Info) != filepath.Base(tr.File)+".trashinfo" {
			t.Errorf("paths %+v", tr)
		}
	}
	if got[0].File == got[1].File {
		t.Error("the second file took the first's name")
	}
}

// Only session files go to the trash: a folder, a file that is not a pi
// session, a symbolic link (even to a session) and a fifo are refused and
// stay where they are.
func TestTrashMovesOnlySessionFiles(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	dir := t.TempDir()
	session := filepath.Join(dir, "real.jsonl")
	os.WriteFile(session, []byte(header), 0o644)
	cases := map[string]func(p string){
		"folder.jsonl":    func(p string) { os.Mkdir(p, 0o755) },
		"notes.jsonl":     func(p string) { os.WriteFile(p, []byte("just text\n"), 0o644) },
		"empty.jsonl":     func(p string) { os.WriteFile(p, nil, 0o644) },
		"claude.jsonl":    func(p string) { os.WriteFile(p, []byte(`{"type":"user","uuid":"u1","sessionId":"s"}`+"\n"), 0o644) },
		"not-first.jsonl": func(p string) { os.WriteFile(p, []byte(`{"type":"message","id":"a"}`+"\n"+header), 0o644) },
		"link.jsonl":      func(p string) { os.Symlink(session, p) },
		"fifo.jsonl":      func(p string) { syscall.Mkfifo(p, 0o644) },
	}
	for name, make := range cases {
		p := filepath.Join(dir, name)
		make(p)
		_, err := store.Trash(p, store.Env{Home: home})
		var r *pi.RefusedError
		if !errors.As(err, &r) || !strings.Contains(r.Reason, "only session files") {
			t.Errorf("%s: err %v", name, err)
		}
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s moved: %v", name, err)
		}
	}
	if _, err := store.Trash(filepath.Join(dir, "link.jsonl"), store.Env{Home: home}); err == nil || !strings.Contains(err.Error(), "link to "+session) {
		t.Errorf("the refusal of a link does not name its target: %v", err)
	}
	if infos, _ := filepath.Glob(filepath.Join(home, "data", "Trash", "info", "*")); len(infos) != 0 {
		t.Errorf("trash info left by refusals: %v", infos)
	}
	if _, err := os.Stat(session); err != nil {
		t.Error("the link's target moved")
	}
}

// A name too long for its .trashinfo (NAME_MAX is 255 bytes): the trash
// name is cut, at a character's start, the .trashinfo keeps the whole path,
// and a second file of that name gets a name of its own.
func TestTrashLongNames(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	dir := t.TempDir()
	for _, base := range []string{
		strings.Repeat("s", 249) + ".jsonl",   // 255 bytes
		strings.Repeat("é", 120) + "x.jsonl",  // 247 bytes, two to a character
		"a." + strings.Repeat("ü", 126) + "e", // 255 bytes, a dot but no extension
	} {
		var names []string
		for i := 0; i < 2; i++ {
			src := filepath.Join(dir, base)
			if err := os.WriteFile(src, []byte(header), 0o644); err != nil {
				t.Fatal(err)
			}
			tr, err := store.Trash(src, store.Env{Home: home})
			if err != nil {
				t.Fatalf("%d bytes: %v", len(base), err)
			}
			name := filepath.Base(tr.File)
			if len(filepath.Base(tr.Info)) > 255 || !utf8.ValidString(name) || filepath.Base(tr.Info) != name+".trashinfo" {
				t.Errorf("trash names %q %q", name, filepath.Base(tr.Info))
			}
			info, _ := os.ReadFile(tr.Info)
			if !strings.Contains(string(info), "\nPath="+store.EscapePath(src)+"\n") {
				t.Errorf("trashinfo does not keep the path:\n%s", info)
			}
			names = append(names, name)
		}
		if names[0] == names[1] {
			t.Errorf("both took %q", names[0])
		}
		if strings.HasSuffix(base, ".jsonl") && (!strings.HasSuffix(names[0], ".jsonl") || !strings.HasSuffix(names[1], ".2.jsonl")) {
			t.Errorf("names %q", names)
		}
	}
}

// TestTrashIntoTheEnvsTrash: a trash named by the environment (the demo's
// own) is the one used; the user's stays untouched.
func TestTrashIntoTheEnvsTrash(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	src := filepath.Join(home, "sessions", "s.jsonl")
	os.MkdirAll(filepath.Dir(src), 0o755)
	os.WriteFile(src, []byte(header), 0o644)
	own := filepath.Join(home, "demo-trash")
	tr, err := store.Trash(src, store.Env{Home: home, Trash: own})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(tr.File) != filepath.Join(own, "files") {
		t.Errorf("trashed to %s, not into %s", tr.File, own)
	}
	if _, err := os.Stat(filepath.Join(home, "data", "Trash")); !os.IsNotExist(err) {
		t.Errorf("the user's trash was written to (%v)", err)
	}
}
