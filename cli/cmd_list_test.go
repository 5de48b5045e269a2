package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestListJSON(t *testing.T) {
	out, _, code := skein(t, "session", "list", "--json", "../testdata/pi/store")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var infos []map[string]any
	if err := json.Unmarshal([]byte(out), &infos); err != nil {
		t.Fatal(err)
	}
	if len(infos) != 19 {
		t.Fatalf("%d sessions, want 19", len(infos))
	}
	keys := []string{"path", "format", "id", "cwd", "name", "parentSession", "created", "modified", "messageCount", "firstMessage"}
	for _, in := range infos {
		for _, k := range keys {
			if _, ok := in[k]; !ok {
				t.Errorf("record lacks %s", k)
			}
		}
	}
	for i := 1; i < len(infos); i++ {
		if infos[i-1]["modified"].(string) < infos[i]["modified"].(string) {
			t.Errorf("not newest first at %d", i)
		}
	}
	// An empty store is an empty array, not an error.
	out, _, code = skein(t, "session", "list", "--json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("empty store: %q exit %d", out, code)
	}
}

// The text table's columns line up by display width: ids and folders with
// CJK, emoji and ZWJ sequences take their width, not their bytes.
func TestListColumnsByDisplayWidth(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct{ id, cwd string }{
		{"019cadc6-aaaa", "/home/dev/webapp"},
		{"多语言多语言多语言", "/home/dev/多语言项目"},
		{"👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻", "/home/dev/👩‍💻-tools"},
	} {
		line := `{"type":"session","version":3,"id":"` + c.id + `","timestamp":"2026-03-0` + string(rune('1'+i)) + `T09:00:00.000Z","cwd":"` + c.cwd + `"}` + "\n" +
			`{"type":"message","id":"a000000` + string(rune('1'+i)) + `","parentId":null,"timestamp":"2026-03-01T09:00:01.000Z","message":{"role":"user","content":"hello","timestamp":1}}` + "\n"
		if err := os.WriteFile(filepath.Join(dir, "s"+string(rune('a'+i))+".jsonl"), []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, _, code := skein(t, "session", "list", dir)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var cols []int
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		i := strings.Index(l, " msgs ")
		j := strings.LastIndex(l, "  hello")
		if i < 0 || j < 0 {
			t.Fatalf("line %q", l)
		}
		cols = append(cols, ansi.StringWidth(l[:i]), ansi.StringWidth(l[:j]))
	}
	for k := 2; k < len(cols); k += 2 {
		if cols[k] != cols[0] || cols[k+1] != cols[1] {
			t.Errorf("columns at %v, not aligned:\n%s", cols, out)
			break
		}
	}
}
