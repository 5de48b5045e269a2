package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestRenameCommand(t *testing.T) {
	f := copyInto(t, fixture(t, webapp, "2026-03-03"))
	if _, _, code := skein(t, "session", "rename", f, "Renamed"); code != 0 {
		t.Error("rename")
	}
	list, _, _ := skein(t, "session", "list", "--json", f)
	if !strings.Contains(list, `"name":"Renamed"`) {
		t.Errorf("list after rename: %s", list)
	}
	v1 := copyInto(t, "../testdata/pi/legacy/v1.jsonl")
	v1b, _ := os.ReadFile(v1)
	if _, stderr, code := skein(t, "session", "rename", v1, "x"); code != 1 || !strings.Contains(stderr, "fork") {
		t.Errorf("rename of v1: %d %s", code, stderr)
	}
	if after, _ := os.ReadFile(v1); !bytes.Equal(after, v1b) {
		t.Error("v1 file changed")
	}
}

// A session whose last line a writer left partial: rename waits until the
// file has been still for 2 s, then names the session on a fresh line.
func TestRenameAfterACrashedWriter(t *testing.T) {
	f := copyInto(t, fixture(t, webapp, "2026-03-02"))
	w, _ := os.OpenFile(f, os.O_WRONLY|os.O_APPEND, 0)
	w.WriteString(`{"type":"message","id":"cut00001","parentId":"x","mess`)
	w.Close()
	before, _ := os.ReadFile(f)
	if _, stderr, code := skein(t, "session", "rename", f, "after\nthe crash"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	after, _ := os.ReadFile(f)
	if rest := string(after[len(before):]); !strings.HasPrefix(rest, "\n{\"type\":\"session_info\"") || !strings.HasSuffix(rest, `"name":"after the crash"}`+"\n") {
		t.Errorf("appended %q", rest)
	}
}
