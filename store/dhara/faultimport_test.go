package dhara

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"skein/model"
)

// An import (a new session folder) that fails at any step leaves no
// folder under the session's name and no staging folder; made again, it
// makes the session, which doctor finds nothing wrong in.
func TestImportFailingAtEveryStep(t *testing.T) {
	src, err := Open(filepath.Join(fixtures, "store", "seed"))
	if err != nil {
		t.Fatal(err)
	}
	ms := src.Domain(model.SessionInfo{Path: "seed", Format: "dhara"})
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, w := range []struct {
		name  string
		write func(root string) (string, error)
	}{
		{"WriteNew", func(root string) (string, error) { return WriteNew(root, FromSession(ms, at, nil)) }},
		{"WriteFromSession", func(root string) (string, error) { return WriteFromSession(root, ms, at, nil) }},
	} {
		t.Run(w.name, func(t *testing.T) {
			base := memDir(t)
			made := func(root, what string) {
				t.Helper()
				des, _ := os.ReadDir(root)
				if len(des) != 1 || strings.HasPrefix(des[0].Name(), ".") || !des[0].IsDir() {
					t.Fatalf("%s: %s holds %v, want the session alone", what, root, names(des))
				}
				for _, d := range diagnostics(t, filepath.Join(root, des[0].Name())) {
					t.Errorf("%s: doctor: %s", what, d)
				}
			}
			rec := &faultFS{}
			useFS(t, rec)
			root := filepath.Join(base, "rec", "sessions")
			if _, err := w.write(root); err != nil {
				t.Fatal(err)
			}
			made(root, "unfailed")
			points := rec.points()
			t.Logf("%d steps to fail, %d of them bytes", len(points), len(points)-len(rec.steps))
			failed := 0
			for k, p := range points {
				root := filepath.Join(base, strconv.Itoa(k), "sessions")
				f := &faultFS{fail: &p}
				fsys = f
				_, err := w.write(root)
				fsys = noSync()
				what := p.String()
				if !f.fired {
					t.Fatalf("%s: never reached", what)
				}
				if err == nil {
					made(root, what)
				} else {
					failed++
					if des, _ := os.ReadDir(root); len(des) > 0 {
						t.Fatalf("%s failed (%v) and left %v", what, err, names(des))
					}
					if _, err := w.write(root); err != nil {
						t.Fatalf("%s, then again: %v", what, err)
					}
					made(root, what+", then again")
				}
				if t.Failed() {
					t.FailNow()
				}
				os.RemoveAll(root)
			}
			t.Logf("%d failures reported, %d imports done whatever failed after their rename", failed, len(points)-failed)
		})
	}
}

func names(des []os.DirEntry) []string {
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}

// stagerEnv makes the test binary an importer that stops, its staging
// folder made and its first file written, until it is killed.
const stagerEnv = "SKEIN_DHARA_STAGER" // the root to import into

func stagerProcess(root string) int {
	_, err := writeNewFolder(root, "killed", func(tmp string) error {
		if err := writeSynced(filepath.Join(tmp, MetaFile), []byte(`{}`)); err != nil {
			return err
		}
		os.Stdout.Write([]byte{'r'})
		time.Sleep(time.Hour) // until killed
		return nil
	})
	fmt.Fprintln(os.Stderr, "stager:", err)
	return 2
}

// A killed import's staging folder is removed by the next import into
// the same root; a live importer's, and every folder of another name, stay.
func TestStaleStagingRemoved(t *testing.T) {
	root := t.TempDir()
	// A real importer, killed with its staging folder half written.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), stagerEnv+"="+root, "GORACE=atexit_sleep_ms=0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var b [1]byte
	if _, err := io.ReadFull(out, b[:]); err != nil || b[0] != 'r' {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the importer did not start: %v %q", err, b)
	}
	cmd.Process.Kill()
	cmd.Wait()
	des, _ := os.ReadDir(root)
	if len(des) != 1 || !strings.HasPrefix(des[0].Name(), stagingPrefix+"killed-") {
		t.Fatalf("the killed importer left %v", names(des))
	}
	killed := des[0].Name()
	dead := cmd.Process.Pid
	hex16 := "0123456789abcdef"
	keep := []string{
		stagingPrefix + "mine-" + strconv.Itoa(os.Getpid()) + "-" + hex16,    // this process's: an import under way
		stagingPrefix + "parent-" + strconv.Itoa(os.Getppid()) + "-" + hex16, // a live process's
		stagingPrefix + "old-123456789",                                      // no pid: not skein's name now
		stagingPrefix + "locked-" + strconv.Itoa(dead) + "-" + hex16,         // a dead pid, but locked
		"notes-" + strconv.Itoa(dead) + "-" + hex16,                          // not a staging folder
	}
	for _, n := range keep {
		if err := os.MkdirAll(filepath.Join(root, n), 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(root, n, EntriesFile), nil, 0o600)
	}
	// A file, not a folder, of a staging name is no staging folder.
	filed := stagingPrefix + "file-" + strconv.Itoa(dead) + "-" + hex16
	os.WriteFile(filepath.Join(root, filed), nil, 0o600)
	keep = append(keep, filed)
	locked, err := os.Open(filepath.Join(root, keep[3]))
	if err != nil {
		t.Fatal(err)
	}
	defer locked.Close()
	if tryLockFile(locked) {
		t.Fatal("the lock is taken")
	}
	src, err := Open(filepath.Join(fixtures, "store", "seed"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteNew(root, FromSession(src.Domain(model.SessionInfo{Path: "seed", Format: "dhara"}), time.Now(), nil)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(root, killed)); err == nil {
		t.Errorf("the killed import's %s stayed", killed)
	}
	for _, n := range keep {
		if _, err := os.Lstat(filepath.Join(root, n)); err != nil {
			t.Errorf("%s was removed", n)
		}
	}
}
