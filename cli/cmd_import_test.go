package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Sessions of every agent skein reads, imported into a Dhara store: each
// a new folder named by skein (never by the file), that doctor finds
// nothing wrong in, whose json export holds every tool call id of the
// source; the same bytes again say where they went, grown ones are
// imported anew.
func TestImportCommand(t *testing.T) {
	out := t.TempDir()
	sources := []string{
		fixture(t, webapp, "2026-03-03"),
		"../testdata/codex/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl",
		"../testdata/codex/compacted.jsonl",
		"../testdata/claude/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl",
		"../testdata/claude/rewind-compact.jsonl",
		"../testdata/dhara05/sessions/b7e0d5a2-1c3f-4d8e-9b6a-0f4e2c8d7a13.jsonl",
		"../testdata/openai/tool-call.json",
		"../testdata/openai/plain-array.json",
	}
	named := regexp.MustCompile(`^[0-9a-f]{16}$`)
	for _, src := range sources {
		stdout, stderr, code := skein(t, "session", "import", "--file", src, "--out", out, "--json")
		var r struct {
			Path    string
			Already bool
		}
		if code != 0 || json.Unmarshal([]byte(stdout), &r) != nil || r.Already {
			t.Fatalf("%s: exit %d %s %s", src, code, stdout, stderr)
		}
		if filepath.Dir(r.Path) != out || !named.MatchString(filepath.Base(r.Path)) {
			t.Errorf("%s went to %s", src, r.Path)
		}
		if report, _, code := skein(t, "doctor", "--check-sessions", r.Path); code != 0 {
			t.Errorf("%s: doctor: exit %d\n%s", src, code, report)
		}
		// Every tool call id of the source is in the export.
		shown, _, _ := skein(t, "session", "context", "--json", src)
		exported, _, code := skein(t, "session", "export", r.Path, "--format", "json")
		if code != 0 {
			t.Fatalf("export %s: exit %d", r.Path, code)
		}
		for _, id := range regexp.MustCompile(`"(?:toolCallId|tool_use_id|call_id)":"([^"]+)"`).FindAllStringSubmatch(shown, -1) {
			if !strings.Contains(exported, `"`+id[1]+`"`) {
				t.Errorf("%s: the call %s is not in the export", src, id[1])
			}
		}
		// The same bytes again: where they went.
		if again, _, code := skein(t, "session", "import", "--file", src, "--out", out); code != 0 || !strings.Contains(again, "already imported: "+r.Path) {
			t.Errorf("%s again: exit %d %s", src, code, again)
		}
	}
	// A source that grew since is imported anew, saying so.
	grown := filepath.Join(t.TempDir(), "grown.jsonl")
	data, _ := os.ReadFile(sources[0])
	data = append(data, `{"type":"label","id":"ffff0000","parentId":"d20164ee","timestamp":"2026-03-03T14:59:00.000Z","targetId":"d20164ee","label":"first"}`+"\n"...)
	os.WriteFile(grown, data, 0o600)
	first, _, _ := skein(t, "session", "import", "--file", grown, "--out", out)
	f, _ := os.OpenFile(grown, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"type":"label","id":"ffff0001","parentId":"d20164ee","timestamp":"2026-03-03T15:00:00.000Z","targetId":"d20164ee","label":"later"}` + "\n")
	f.Close()
	second, _, code := skein(t, "session", "import", "--file", grown, "--out", out)
	if code != 0 || !strings.Contains(second, "changed since it was imported into") || first == second {
		t.Errorf("a grown source: exit %d\n%s\n%s", code, first, second)
	}
	if _, stderr, code := skein(t, "session", "import", "--file", sources[0], "--format", "docx", "--out", out); code != 1 || !strings.Contains(stderr, "no importer") {
		t.Errorf("an unknown format: exit %d %s", code, stderr)
	}
	if _, stderr, code := skein(t, "session", "import", "--out", out); code != 2 || !strings.Contains(stderr, "--file") {
		t.Errorf("no file: exit %d %s", code, stderr)
	}
}
