package pi

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"skein/internal/formattest"
)

// forceNamed makes new files take the path of a platform without O_TMPFILE.
func forceNamed(t *testing.T) {
	old := openUnnamed
	openUnnamed = func(string) (*os.File, error) { return nil, syscall.EOPNOTSUPP }
	t.Cleanup(func() { openUnnamed = old })
}

// Both ways of making a new file: the unnamed one, and the named one of
// platforms without O_TMPFILE.
var newFileWays = []struct {
	name  string
	setup func(t *testing.T)
}{{"unnamed", func(*testing.T) {}}, {"named", forceNamed}}

// A fork has its source's mode whatever the umask, and leaves no temporary
// file; an existing file is never replaced.
func TestForkModeAndNoLeftovers(t *testing.T) {
	for _, way := range newFileWays {
		t.Run(way.name, func(t *testing.T) {
			way.setup(t)
			for _, c := range []struct{ src, umask os.FileMode }{{0o600, 0}, {0o644, 0o077}, {0o640, 0o022}} {
				src := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
				os.Chmod(src, c.src)
				old := syscall.Umask(int(c.umask))
				f, err := WriteFork(src, parse(t, src), 3)
				syscall.Umask(old)
				if err != nil {
					t.Fatal(err)
				}
				fi, _ := os.Stat(f.Path)
				if fi.Mode().Perm() != c.src {
					t.Errorf("source %v, umask %v: the fork is %v", c.src, c.umask, fi.Mode().Perm())
				}
				if got := formattest.Names(t, filepath.Dir(src), ""); len(got) != 2 {
					t.Errorf("folder holds %v", got)
				}
			}
			dir := t.TempDir()
			path := filepath.Join(dir, "s.jsonl")
			os.WriteFile(path, []byte("mine\n"), 0o644)
			if err := writeNew(path, []byte("other\n"), 0o644); err == nil || !strings.Contains(err.Error(), "exists") {
				t.Errorf("err %v", err)
			}
			if b := formattest.ReadFile(t, path); string(b) != "mine\n" {
				t.Errorf("the existing file became %q", b)
			}
			if got := formattest.Names(t, dir, ""); len(got) != 1 {
				t.Errorf("folder holds %v", got)
			}
		})
	}
}

func TestUnnamedUnsupportedErrors(t *testing.T) {
	for _, err := range []error{syscall.EOPNOTSUPP, syscall.EISDIR, syscall.EINVAL} {
		if !unnamedUnsupported(err) {
			t.Errorf("%v is not taken for a missing O_TMPFILE", err)
		}
	}
	if unnamedUnsupported(syscall.EACCES) {
		t.Error("EACCES taken for a missing O_TMPFILE")
	}
}

// forkProcess forks the session at path and stops for good before the fork
// gets its name, as a skein killed midway would.
func forkProcess(path string) {
	if os.Getenv("SKEIN_TEST_NAMED") != "" {
		openUnnamed = func(string) (*os.File, error) { return nil, syscall.EOPNOTSUPP }
	}
	testHookBeforeLink = func(tmp string) {
		fmt.Println("ready", filepath.Base(tmp))
		select {}
	}
	s, err := Open(path)
	if err == nil {
		_, err = WriteFork(path, s, s.Leaf())
	}
	fmt.Println(err)
	os.Exit(1)
}

// killForkMidway runs a fork in another process and kills it before the
// fork is named; it returns the temporary file's name ("" for none).
func killForkMidway(t *testing.T, src string, named bool) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SKEIN_TEST_FORK="+src)
	if named {
		cmd.Env = append(cmd.Env, "SKEIN_TEST_NAMED=1")
	}
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	cmd.Process.Kill()
	cmd.Wait()
	tmp, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "ready ")
	if err != nil || !ok {
		t.Fatalf("fork process: %q %v", line, err)
	}
	if tmp == "." {
		return ""
	}
	return tmp
}

// A fork killed midway: with O_TMPFILE nothing is left at all; with a
// named temporary file, the next write in the folder removes it.
func TestForkKilledMidway(t *testing.T) {
	src := copyFixture(t, "store/--home-dev-webapp--/2026-03-02*.jsonl")
	dir := filepath.Dir(src)
	if tmp := killForkMidway(t, src, false); tmp != "" {
		t.Errorf("an unnamed fork had a name: %s", tmp)
	}
	if got := formattest.Names(t, dir, ""); len(got) != 1 {
		t.Errorf("after an unnamed fork was killed, the folder holds %v", got)
	}
	for _, next := range []string{"rename", "fork"} {
		tmp := killForkMidway(t, src, true)
		if !slices.Contains(formattest.Names(t, dir, ""), tmp) {
			t.Fatalf("no temporary file %q in %v", tmp, formattest.Names(t, dir, ""))
		}
		if next == "rename" {
			if _, err := Rename(src, "n"); err != nil {
				t.Fatal(err)
			}
		} else {
			f, err := WriteFork(src, parse(t, src), 1)
			if err != nil {
				t.Fatal(err)
			}
			os.Remove(f.Path)
		}
		if got := formattest.Names(t, dir, ""); len(got) != 1 {
			t.Errorf("after a %s, the folder holds %v", next, got)
		}
	}
}
