package main

import (
	"os"
	"strings"
	"testing"
)

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
