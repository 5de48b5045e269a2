package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A source's cwd with ESC, BEL and a newline imported --to pi: pi's folder
// naming, but no control character in any name made; the user is told.
func TestImportToPiFolderHasNoControls(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "s.jsonl")
	data, err := os.ReadFile(fixture(t, webapp, "2026-03-03"))
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	var h map[string]any
	if err := json.Unmarshal(first, &h); err != nil {
		t.Fatal(err)
	}
	h["cwd"] = "/home/dev/\x1b[2Jweb\x07app\nx\u009b"
	first, _ = json.Marshal(h)
	os.WriteFile(src, append(append(first, '\n'), rest...), 0o644)

	agent := t.TempDir()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("PI_CODING_AGENT_DIR", agent)
	t.Setenv("PI_CODING_AGENT_SESSION_DIR", "")
	var out, errb bytes.Buffer
	if code := Run([]string{"session", "import", "--file", src, "--to", "pi"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d %s %s", code, out.String(), errb.String())
	}
	if !strings.Contains(errb.String(), "control characters") {
		t.Errorf("not told: %q", errb.String())
	}
	filepath.Walk(agent, func(p string, fi os.FileInfo, err error) error {
		if strings.ContainsFunc(fi.Name(), func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }) {
			t.Errorf("made %q", p)
		}
		return nil
	})
	m, _ := filepath.Glob(filepath.Join(agent, "sessions", "*", "*.jsonl"))
	if len(m) != 1 || filepath.Base(filepath.Dir(m[0])) != "--home-dev-_[2Jweb_app_x_--" {
		t.Errorf("sessions: %q", m)
	}
}
