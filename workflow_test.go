package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/internal/llmtest"
	"skein/store/pi"
)

// TestCompactRefusesAStaleLeaf: an agent appends to the session while the
// model writes its summary; `session compact` then writes nothing and says
// why, and with --leaf it compacts at the entry named all the same.
func TestCompactRefusesAStaleLeaf(t *testing.T) {
	src := fixture(t, webapp, "2026-03-02")
	data, _ := os.ReadFile(src)
	path := filepath.Join(t.TempDir(), filepath.Base(src))
	os.WriteFile(path, data, 0o644)
	s, err := pi.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	leaf := s.Entries[s.Leaf()].ID
	f := &llmtest.Server{}
	appended := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !appended {
			appended = true
			a, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			a.WriteString(`{"type":"message","id":"0badc0de","parentId":"` + leaf + `","timestamp":"2026-03-02T09:10:00.000Z","message":{"role":"user","content":"more","timestamp":1772442600000}}` + "\n")
			a.Close()
		}
		f.Handler().ServeHTTP(w, r)
	}))
	defer srv.Close()
	t.Setenv("ANTHROPIC_API_KEY", "k")
	t.Setenv("ANTHROPIC_BASE_URL", srv.URL)
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	_, stderr, code := skein(t, "session", "compact", path, "--summarizer", "llm", "--keep-tokens", "10")
	if code != 1 || !strings.Contains(stderr, "changed while the summary was made") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	now, _ := os.ReadFile(path)
	if !appended || !strings.HasPrefix(string(now), string(data)) || strings.Count(string(now[len(data):]), "\n") != 1 {
		t.Fatalf("the file holds more than the agent's line:\n%s", now[len(data):])
	}
	// Named with --leaf, the entry is compacted at, on a branch of its own.
	if out, stderr, code := skein(t, "session", "compact", path, "--summarizer", "llm", "--keep-tokens", "10", "--leaf", leaf); code != 0 {
		t.Fatalf("--leaf: exit %d: %s %s", code, out, stderr)
	}
}
