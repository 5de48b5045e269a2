package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// cpR copies a file or a folder of files into dir.
func cpR(t *testing.T, src, dst string) {
	t.Helper()
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
}

// An export never replaces a session, a file in a Dhara folder or anything
// reached through a link, with or without --force; a plain file needs
// --force; and a refused export leaves every byte where it was.
func TestExportNeverOverwritesASession(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	cpR(t, fixture(t, webapp, "2026-03-03"), a)
	b := filepath.Join(dir, "b.jsonl")
	cpR(t, fixture(t, webapp, "2026-03-02"), b)
	d := filepath.Join(dir, "d")
	cpR(t, "../testdata/dhara/store/branched", d)
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(b, link); err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(dir, "c.jsonl")
	cpR(t, "../testdata/claude", filepath.Join(dir, "claude"))
	m, _ := filepath.Glob(filepath.Join(dir, "claude", "*.jsonl"))
	if len(m) == 0 {
		t.Fatal("no Claude Code fixture")
	}
	claude = m[0]
	targets := []string{a, b, filepath.Join(d, "entries.jsonl"), filepath.Join(d, "meta.json"), filepath.Join(d, "new.md"), d, link, claude}
	for _, target := range targets {
		for _, force := range []bool{false, true} {
			before := snapshot(t, dir)
			args := []string{"session", "export", a, "--format", "markdown", "-o", target}
			if force {
				args = append(args, "--force")
			}
			_, stderr, code := skein(t, args...)
			if code != 1 || strings.Contains(stderr, "wrote") {
				t.Errorf("-o %s (force %v): exit %d %q", target, force, code, stderr)
			}
			if after := snapshot(t, dir); after != before {
				t.Errorf("-o %s (force %v) changed the folder", target, force)
			}
		}
	}
}

// A plain file of the user's is replaced only with --force; a new file is
// written; an output inside an agent's store is refused.
func TestExportReplacesOnlyWithForce(t *testing.T) {
	dir := t.TempDir()
	src := fixture(t, webapp, "2026-03-03")
	notes := filepath.Join(dir, "notes.md")
	os.WriteFile(notes, []byte("my notes\n"), 0o644)
	if _, stderr, code := skein(t, "session", "export", src, "--format", "md", "-o", notes); code != 1 || !strings.Contains(stderr, "--force") {
		t.Errorf("without --force: exit %d %q", code, stderr)
	}
	if b, _ := os.ReadFile(notes); string(b) != "my notes\n" {
		t.Errorf("notes changed: %q", b)
	}
	if _, stderr, code := skein(t, "session", "export", src, "--format", "md", "-o", notes, "--force"); code != 0 {
		t.Errorf("--force: exit %d %q", code, stderr)
	}
	if b, _ := os.ReadFile(notes); !bytes.HasPrefix(b, []byte("# ")) {
		t.Errorf("--force did not replace: %q", b)
	}
	// skein's own JSON export may be written again.
	j := filepath.Join(dir, "s.json")
	for i := 0; i < 2; i++ {
		if _, stderr, code := skein(t, "session", "export", src, "--format", "json", "-o", j, "--force"); code != 0 {
			t.Fatalf("json export %d: exit %d %q", i, code, stderr)
		}
	}
	// Inside the default pi store (under the test's HOME).
	home := t.TempDir()
	store := filepath.Join(home, ".pi", "agent", "sessions", "--x--")
	os.MkdirAll(store, 0o755)
	t.Setenv("HOME", home)
	var out, errb bytes.Buffer
	code := Run([]string{"session", "export", src, "--format", "md", "-o", filepath.Join(store, "x.md")}, strings.NewReader(""), &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "session store") {
		t.Errorf("into pi's store: exit %d %q", code, errb.String())
	}
	if m, _ := filepath.Glob(filepath.Join(store, "*")); len(m) != 0 {
		t.Errorf("wrote into pi's store: %v", m)
	}
}

// snapshot is every file under dir with its bytes, and every link's target.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p + " " + fi.Mode().String() + "\n")
		if fi.Mode()&os.ModeSymlink != 0 {
			l, _ := os.Readlink(p)
			b.WriteString("-> " + l + "\n")
		} else if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			b.Write(data)
		}
		return nil
	})
	return b.String()
}

// An export is the user's to read and write, and readable by others when
// its session is: a private session's export is private, a read-only
// session's export is not read-only.
func TestExportHasTheSessionsMode(t *testing.T) {
	dir := t.TempDir()
	for mode, want := range map[os.FileMode]os.FileMode{0o600: 0o600, 0o644: 0o644, 0o444: 0o644, 0o400: 0o600} {
		src := filepath.Join(dir, "s.jsonl")
		os.Remove(src)
		cpR(t, fixture(t, webapp, "2026-03-03"), src)
		os.Chmod(src, mode)
		out := filepath.Join(dir, "out.html")
		os.Remove(out)
		if _, stderr, code := skein(t, "session", "export", src, "--format", "html", "-o", out); code != 0 {
			t.Fatalf("exit %d %s", code, stderr)
		}
		if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != want {
			t.Errorf("session %v: export %v %v", mode, fi.Mode(), err)
		}
	}
}
