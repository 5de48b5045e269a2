package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"skein/store"
)

// TestREADMEListsTheCommands: the README's list of commands is the one
// --help prints, generated from the commands themselves.
func TestREADMEListsTheCommands(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```\n"+commandList("")+"```\n") {
		t.Errorf("the README's command list is not --help's; it should read:\n%s", commandList(""))
	}
	out, _, code := skein(t, "--help")
	if code != 0 || !strings.Contains(out, commandList("  ")) {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if len(line) > 80 {
			t.Errorf("--help line wider than 80 columns: %q", line)
		}
	}
}

// TestHelpNamesEveryAgentsFolder: --help and the README name each folder
// skein reads when no PATH is given (the default roots, written from ~), so
// that an agent whose folder is added to the default store cannot be left
// out of what a newcomer reads.
func TestHelpNamesEveryAgentsFolder(t *testing.T) {
	// Every agent's folder variable unset, so that its default is named.
	for _, v := range []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "DHARA_HOME", "GEMINI_CLI_HOME", "COPILOT_HOME", "QWEN_HOME", "QWEN_RUNTIME_DIR", "CURSOR_CONFIG_DIR", "OPENCLAW_STATE_DIR", "OMP_CODING_AGENT_DIR", "FACTORY_HOME_OVERRIDE", "KIMI_CODE_HOME", "KIMI_SHARE_DIR", "CLINE_SESSION_DATA_DIR", "CLINE_DATA_DIR", "CLINE_DIR", "XDG_DATA_HOME", "KILO_DB"} {
		t.Setenv(v, "")
	}
	roots := store.Env{Home: "~", WorkingDirPath: t.TempDir()}.DefaultRoots()
	if len(roots) < 4 {
		t.Fatalf("default roots: %q", roots)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := skein(t, "--help")
	if code != 0 {
		t.Fatalf("--help: exit %d", code)
	}
	help := strings.Join(strings.Fields(out), " ")
	for _, root := range roots {
		root = filepath.ToSlash(root)
		if !strings.Contains(help, root) {
			t.Errorf("--help does not name the default folder %s:\n%s", root, out)
		}
		if !strings.Contains(string(readme), "`"+root+"`") {
			t.Errorf("README.md does not name the default folder %s", root)
		}
	}
}

// TestEveryFlagInItsUsage: each flag a command accepts is in its usage,
// and each flag its usage names is accepted (an unknown one is a usage
// error, exit 2).
func TestEveryFlagInItsUsage(t *testing.T) {
	flag := regexp.MustCompile(`--[a-z-]+`)
	for _, c := range commands {
		for _, f := range flag.FindAllString(c.args, -1) {
			args := append(strings.Fields(c.name), f, "x", "no-such-session")
			if _, stderr, code := skein(t, args...); code == 2 && strings.Contains(stderr, "unknown flag") {
				t.Errorf("%s: its usage names %s, which it refuses: %s", c.name, f, stderr)
			}
		}
		args := append(strings.Fields(c.name), "--no-such-flag", "x")
		if _, stderr, code := skein(t, args...); code != 2 {
			t.Errorf("%s --no-such-flag: exit %d, %s", c.name, code, stderr)
		}
	}
}

// TestEveryCommandHasItsTest: each command's file has a test file beside it.
func TestEveryCommandHasItsTest(t *testing.T) {
	for _, c := range commands {
		words := strings.Fields(c.name)
		file := "cmd_" + words[len(words)-1] + "_test.go"
		if _, err := os.Stat(file); err != nil {
			t.Errorf("%s: no %s", c.name, file)
		}
	}
}

// `skein CMD --help` (and -h) prints that command's usage and exits 0, for
// every command, whatever else is on the line.
func TestEveryCommandHasItsHelp(t *testing.T) {
	for _, c := range commands {
		for _, flag := range []string{"--help", "-h"} {
			argv := append(strings.Fields(c.name), "x", flag)
			out, stderr, code := skein(t, argv...)
			if code != 0 || !strings.HasPrefix(out, "Usage: skein "+c.name) || !strings.Contains(out, wrap(c.help, 76)[0]) || stderr != "" {
				t.Errorf("%v: exit %d %q %q", argv, code, out, stderr)
			}
		}
	}
	if _, stderr, code := skein(t, "session"); code != 2 || !strings.Contains(stderr, "import") || !strings.Contains(stderr, "export") {
		t.Errorf("session: exit %d %q", code, stderr)
	}
}

// `skein session --help` lists the verbs and exits 0; a list of a folder
// holding files that are no session says how many it left out.
func TestSessionHelpAndFilesLeftOut(t *testing.T) {
	out, _, code := skein(t, "session", "--help")
	if code != 0 || !strings.Contains(out, "import") || !strings.Contains(out, "export") {
		t.Errorf("session --help: exit %d %q", code, out)
	}
	dir := t.TempDir()
	os.WriteFile(dir+"/a.jsonl", []byte(`{"x":1}`+"\n"), 0o644)
	os.WriteFile(dir+"/b.jsonl", []byte("junk\n"), 0o644)
	_, stderr, code := skein(t, "session", "list", dir)
	if code != 0 || !strings.Contains(stderr, "2 files left out") {
		t.Errorf("list: exit %d %q", code, stderr)
	}
}
