package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"skein/store"
	"testing"
)

// WriteOutput fails at every byte count, and at its sync, link and rename:
// afterwards the folder holds exactly what it held (the old file, or no
// file), and no temporary file.
func TestWriteOutputFaults(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef\n"), 100)
	saved := *store.OutputFS
	defer func() { *store.OutputFS = saved }()
	errDisk := errors.New("injected: no space left on device")
	root := t.TempDir()
	for _, existing := range []bool{false, true} {
		for n := 0; n <= len(data)+3; n++ {
			dir := filepath.Join(root, fmt.Sprint(existing, n))
			os.Mkdir(dir, 0o755)
			path := filepath.Join(dir, "out.md")
			if existing {
				os.WriteFile(path, []byte("old\n"), 0o644)
			}
			*store.OutputFS = saved
			step := ""
			switch {
			case n < len(data):
				left := n
				store.OutputFS.Write = func(f *os.File, p []byte) (int, error) {
					if len(p) > left {
						k, _ := f.Write(p[:left])
						left = 0
						return k, errDisk
					}
					left -= len(p)
					return f.Write(p)
				}
				step = fmt.Sprintf("write after %d bytes", n)
			case n == len(data):
				store.OutputFS.Sync = func(*os.File) error { return errDisk }
				step = "sync"
			case n == len(data)+1:
				store.OutputFS.Link = func(string, string) error { return errDisk }
				step = "link"
			case n == len(data)+2:
				store.OutputFS.Rename = func(string, string) error { return errDisk }
				step = "rename"
			default:
				step = "none"
			}
			err := store.WriteOutput(path, existing, 0o600, func(w io.Writer) error { _, err := w.Write(data); return err })
			got, rerr := os.ReadFile(path)
			ents, _ := os.ReadDir(dir)
			switch {
			case step == "none" || step == "link" && existing || step == "rename" && !existing:
				if err != nil || !bytes.Equal(got, data) || len(ents) != 1 {
					t.Fatalf("%s (existing %v): %v, %d bytes, %d names", step, existing, err, len(got), len(ents))
				}
			case err == nil:
				t.Fatalf("%s (existing %v): no error", step, existing)
			case existing && string(got) != "old\n", !existing && !errors.Is(rerr, fs.ErrNotExist):
				t.Fatalf("%s (existing %v): the file is now %q", step, existing, got)
			case len(ents) != map[bool]int{true: 1, false: 0}[existing]:
				t.Fatalf("%s (existing %v): left %v", step, existing, ents)
			}
		}
	}
}

// Without replace, a file made at the path after the check is never
// replaced: the write fails with fs.ErrExist.
func TestWriteOutputNeverReplacesWithoutReplace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.md")
	err := store.WriteOutput(path, false, 0o600, func(w io.Writer) error {
		os.WriteFile(path, []byte("theirs"), 0o644)
		_, err := w.Write([]byte("ours"))
		return err
	})
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("err %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "theirs" {
		t.Errorf("replaced: %q", b)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("left %v", ents)
	}
}

// An output gets the mode asked for (a private session's export is
// private), and the temporary file a killed export
// left (its writer's pid gone) is removed by the next one in the folder.
func TestWriteOutputModeAndStaleTemps(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".skein-999999999-0123456789abcdef.tmp")
	os.WriteFile(stale, []byte("half an export"), 0o600)
	path := filepath.Join(dir, "out.md")
	if err := store.WriteOutput(path, false, 0o600, func(w io.Writer) error { _, err := w.Write([]byte("x")); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v %v", fi, err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the stale temporary file stays: %v", err)
	}
}

// Without the converter linked in (store's own tests), an output still
// never replaces a session: the file's first lines tell (Detect).
func TestCheckOutputRefusesASessionWithoutTheConverter(t *testing.T) {
	dir := t.TempDir()
	env := store.Env{Home: t.TempDir(), WorkingDirPath: dir}
	for _, src := range []string{
		"../testdata/pi/store/--home-dev-pi16-auto--/2026-11-24T16-00-00-000Z_01a20e49-1400-7073-b4f8-fa6ab85eba14.jsonl",
		"../testdata/unseen/codex/rollout-2026-05-04T10-11-12-019df2c4-7a31-7d52-9b0e-4c1f6a2e8d93.jsonl",
		"../testdata/unseen/claude-code/f1223443-4724-4b0d-9b6a-1f1b8a55e1fc.jsonl",
	} {
		var oe *store.OutputError
		if _, err := env.CheckOutput(src); !errors.As(err, &oe) {
			t.Errorf("%s: %v, want it refused as a session", filepath.Base(src), err)
		}
	}
}
