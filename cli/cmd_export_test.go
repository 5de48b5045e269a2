package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExportCommand(t *testing.T) {
	f := fixture(t, webapp, "2026-03-03")
	out, stderr, code := skein(t, "session", "export", f, "--format", "markdown")
	if code != 0 || !strings.HasPrefix(out, "# ") || !strings.Contains(out, "### user") {
		t.Fatalf("markdown: exit %d %s\n%s", code, stderr, out)
	}
	all, _, _ := skein(t, "session", "export", f, "--format", "markdown", "--all-branches")
	if !strings.Contains(all, "## Branch 2") || len(all) <= len(out) {
		t.Errorf("--all-branches shows no second branch:\n%s", all)
	}
	out, stderr, code = skein(t, "session", "export", f, "--format", "json")
	var doc struct {
		Meta    map[string]any
		Entries []map[string]any
		Tree    map[string]any
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Entries) == 0 || doc.Tree["root"] == nil {
		t.Fatalf("json: exit %d %s\n%s", code, stderr, out)
	}
	// -o writes the file whole, and says so on stderr.
	dst := filepath.Join(t.TempDir(), "s.md")
	if out, stderr, code := skein(t, "session", "export", f, "--format", "md", "-o", dst); code != 0 || out != "" || !strings.Contains(stderr, "wrote") {
		t.Errorf("-o: exit %d %q %q", code, out, stderr)
	}
	if b, err := os.ReadFile(dst); err != nil || !strings.HasPrefix(string(b), "# ") {
		t.Errorf("-o wrote %q %v", b, err)
	}
	page, _, code := skein(t, "session", "export", f, "--format", "html")
	if code != 0 || !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.Contains(page, "Content-Security-Policy") {
		t.Errorf("html: exit %d\n%.300s", code, page)
	}
	for _, bad := range [][]string{{"--format", "pdf"}, {}} {
		if _, stderr, code := skein(t, append([]string{"session", "export", f}, bad...)...); code != 2 || !strings.Contains(stderr, "format") {
			t.Errorf("%v: exit %d %s", bad, code, stderr)
		}
	}
}

// -o DIR writes into DIR a file named after the session's title and day.
func TestExportIntoAFolder(t *testing.T) {
	f := fixture(t, webapp, "2026-03-03")
	dir := t.TempDir()
	for _, format := range []string{"html", "markdown", "json"} {
		if _, stderr, code := skein(t, "session", "export", f, "--format", format, "-o", dir); code != 0 {
			t.Fatalf("%s: exit %d %s", format, code, stderr)
		}
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(names) != 3 {
		t.Fatalf("%d files: %v", len(names), names)
	}
	for _, n := range names {
		base := filepath.Base(n)
		if !strings.Contains(base, " 2026-") || !(strings.HasSuffix(base, ".html") || strings.HasSuffix(base, ".md") || strings.HasSuffix(base, ".json")) {
			t.Errorf("named %q", base)
		}
	}
}
