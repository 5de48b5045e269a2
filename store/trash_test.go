package store

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestTrashMovesWithTrashInfo(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	dir := filepath.Join(home, "sessions", "--a b--")
	os.MkdirAll(dir, 0o755)
	src := filepath.Join(dir, "s 1.jsonl")
	os.WriteFile(src, []byte("{}\n"), 0o644)
	// Twice the same name: the second gets another.
	var got []Trashed
	for i := 0; i < 2; i++ {
		os.WriteFile(src, []byte("{}\n"), 0o644)
		tr, err := Trash(src, Env{Home: home})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, tr)
		if _, err := os.Stat(src); !os.IsNotExist(err) {
			t.Error("the file is still there")
		}
		if data, err := os.ReadFile(tr.File); err != nil || string(data) != "{}\n" {
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
