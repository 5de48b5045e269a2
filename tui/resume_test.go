package tui

import (
	"os"
	"path/filepath"
	"skein/internal/sanitize"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// P resumes the selected session in the user's pi, first on the PATH, with
// --session and the file's path, in the session's folder; and with no pi on
// the PATH it says so and copies the command.
func TestResumeInPi(t *testing.T) {
	root := t.TempDir()
	cwd := t.TempDir() // the session's folder, which exists
	src, _ := filepath.Glob(filepath.Join(fixtureStore, "--home-dev-webapp--", "2026-03-02*.jsonl"))
	data, err := os.ReadFile(src[0])
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), `"cwd":"/home/dev/webapp"`, `"cwd":"`+cwd+`"`, 1))
	path := filepath.Join(root, "s.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	record := filepath.Join(t.TempDir(), "ran")
	script := "#!/bin/sh\nprintf '%s\\n' \"$PWD\" \"$@\" > " + record + "\n"
	if err := os.WriteFile(filepath.Join(bin, "pi"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	for _, screen := range []string{"list", "session"} {
		m := loaded(t, 120, 40, true, root)
		if screen == "session" {
			run(m, press(m, "enter"))
			if m.session == nil {
				t.Fatal("the session did not open")
			}
		}
		cmd := press(m, "P")
		if cmd == nil {
			t.Fatalf("%s: P did nothing", screen)
		}
		ready, ok := cmd().(resumeReadyMsg)
		if !ok || ready.cmd == nil {
			t.Fatalf("%s: P gave %#v", screen, ready)
		}
		c := ready.cmd
		if filepath.Base(c.Path) != "pi" || filepath.Dir(c.Path) != bin || strings.Join(c.Args[1:], " ") != "--session "+path || c.Dir != cwd {
			t.Fatalf("%s: runs %s %v in %q", screen, c.Path, c.Args, c.Dir)
		}
		if _, exec := m.Update(ready); exec == nil {
			t.Fatalf("%s: no command hands the terminal over", screen)
		}
		if err := c.Run(); err != nil { // what tea.ExecProcess does with it
			t.Fatal(err)
		}
		got, _ := os.ReadFile(record)
		if want := cwd + "\n--session\n" + path + "\n"; string(got) != want {
			t.Errorf("%s: pi ran as %q, want %q", screen, got, want)
		}
		run(m, func() tea.Msg { return resumedMsg{path: path} })
	}

	// Without pi on the PATH: the command, copied.
	t.Setenv("PATH", t.TempDir())
	m := loaded(t, 120, 40, true, root)
	run(m, press(m, "P"))
	if !strings.Contains(m.statusText, "pi is not on the PATH; copied: cd "+sanitize.ShellQuote(cwd)+" && pi --session "+path) {
		t.Errorf("status %q", m.statusText)
	}
}
