package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"skein/store"
	"strconv"
	"syscall"
	"testing"
)

// exdev is a rename across file systems.
func exdev(old, new string) error {
	return &os.LinkError{Op: "rename", Old: old, New: new, Err: syscall.EXDEV}
}

// A session no trash takes by a rename (another file system, its top
// folder not the user's) is copied into the home trash, synced, and
// removed: a file and a Dhara folder.
func TestTrashAcrossFileSystems(t *testing.T) {
	saved := *store.TrashFS
	defer func() { *store.TrashFS = saved }()
	store.TrashFS.Rename = func(old, new string) error {
		if filepath.Base(filepath.Dir(old)) == "files" || filepath.Base(filepath.Dir(new)) != "files" {
			return os.Rename(old, new) // the copy's own rename, inside the trash
		}
		return exdev(old, new)
	}
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	src := filepath.Join(home, "s.jsonl")
	os.WriteFile(src, []byte(header), 0o600)
	tr, err := store.Trash(src, store.Env{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); !errors.Is(err, os.ErrNotExist) {
		t.Error("the session is still there")
	}
	if b, err := os.ReadFile(tr.File); err != nil || string(b) != header {
		t.Errorf("trashed %q %v", b, err)
	}
	if fi, _ := os.Stat(tr.File); fi == nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi)
	}
	if _, err := os.Stat(tr.Info); err != nil {
		t.Error(err)
	}
	files, _ := os.ReadDir(filepath.Dir(tr.File))
	if len(files) != 1 {
		t.Errorf("trash holds %v", files)
	}

	dir := filepath.Join(home, "d")
	os.CopyFS(dir, os.DirFS("../testdata/dhara/store/branched"))
	tr, err = store.Trash(dir, store.Env{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Error("the folder is still there")
	}
	want, _ := os.ReadFile("../testdata/dhara/store/branched/entries.jsonl")
	if b, err := os.ReadFile(filepath.Join(tr.File, "entries.jsonl")); err != nil || string(b) != string(want) {
		t.Errorf("trashed folder: %v", err)
	}
}

// A session that changes while it is copied stays where it is, whole, and
// no copy is left in the trash.
func TestTrashCopyLeavesAWriterAlone(t *testing.T) {
	saved := *store.TrashFS
	defer func() { *store.TrashFS = saved }()
	home := t.TempDir()
	src := filepath.Join(home, "s.jsonl")
	os.WriteFile(src, []byte(header), 0o644)
	store.TrashFS.Rename = func(old, new string) error {
		if filepath.Base(filepath.Dir(new)) == "files" && filepath.Base(filepath.Dir(old)) == "files" {
			f, _ := os.OpenFile(src, os.O_WRONLY|os.O_APPEND, 0)
			f.WriteString(`{"type":"label"}` + "\n")
			f.Close()
			return os.Rename(old, new)
		}
		return exdev(old, new)
	}
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	if _, err := store.Trash(src, store.Env{Home: home}); err == nil {
		t.Fatal("trashed a session being written")
	}
	if b, _ := os.ReadFile(src); string(b) != header+`{"type":"label"}`+"\n" {
		t.Errorf("the session is %q", b)
	}
	for _, d := range []string{"files", "info"} {
		if ents, _ := os.ReadDir(filepath.Join(home, "data", "Trash", d)); len(ents) != 0 {
			t.Errorf("trash %s holds %v", d, ents)
		}
	}
}

// On a real second file system (/dev/shm, a tmpfs, when it is one) whose
// top folder's trash is not offered, the copy runs for real.
func TestTrashAcrossRealFileSystems(t *testing.T) {
	shm, err := os.MkdirTemp("/dev/shm", "skein-trash-")
	if err != nil {
		t.Skip("no /dev/shm")
	}
	defer os.RemoveAll(shm)
	home := t.TempDir()
	a, okA := store.Device(shm)
	b, okB := store.Device(home)
	if !okA || !okB || a == b {
		t.Skip("/dev/shm is on the temporary folder's file system")
	}
	saved := *store.TrashFS
	defer func() { *store.TrashFS = saved }()
	store.TrashFS.MountTop = func(string) string { return "" }
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	src := filepath.Join(shm, "s.jsonl")
	os.WriteFile(src, []byte(header), 0o644)
	tr, err := store.Trash(src, store.Env{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); !errors.Is(err, os.ErrNotExist) {
		t.Error("still there")
	}
	if b, _ := os.ReadFile(tr.File); string(b) != header {
		t.Errorf("trashed %q", b)
	}
}

// A copy into the trash that a killed skein left (its pid gone) is removed
// by the next copy; a live one's stays.
func TestTrashCopyRemovesStaleCopies(t *testing.T) {
	saved := *store.TrashFS
	defer func() { *store.TrashFS = saved }()
	store.TrashFS.Rename = func(old, new string) error {
		if filepath.Base(filepath.Dir(old)) == "files" {
			return os.Rename(old, new)
		}
		return exdev(old, new)
	}
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	files := filepath.Join(home, "data", "Trash", "files")
	stale := filepath.Join(files, store.CopyPrefix+"999999999-s.jsonl")
	live := filepath.Join(files, store.CopyPrefix+strconv.Itoa(os.Getppid())+"-t.jsonl")
	os.MkdirAll(stale, 0o700)
	os.WriteFile(live, []byte("x"), 0o600)
	src := filepath.Join(home, "s.jsonl")
	os.WriteFile(src, []byte(header), 0o600)
	if _, err := store.Trash(src, store.Env{Home: home}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Error("the stale copy stays")
	}
	if _, err := os.Stat(live); err != nil {
		t.Error("a live copy went")
	}
}
