package cli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/internal/llmtest"
	"skein/store"
)

func TestCompactExtractive(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	f := copyInto(t, fixture(t, webapp, "2026-03-02"))
	before, _ := os.ReadFile(f)
	out, stderr, code := skein(t, "session", "compact", f, "--keep-tokens", "10", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		ID, Summary, FirstKeptEntryID string
		TokensBefore                  float64
		ReadFiles, ModifiedFiles      []string
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(f)
	if !bytes.HasPrefix(after, before) || bytes.Count(after[len(before):], []byte("\n")) != 1 {
		t.Fatal("not one line appended to unchanged bytes")
	}
	plan, _, _ := skein(t, "session", "plan", "--json", f, "--leaf", res.FirstKeptEntryID)
	_ = plan
	var entry map[string]any
	json.Unmarshal(bytes.TrimSpace(after[len(before):]), &entry)
	if entry["type"] != "compaction" || entry["id"] != res.ID || entry["firstKeptEntryId"] == "" {
		t.Errorf("entry %v", entry)
	}
	if !strings.HasPrefix(res.Summary, "## Goal") || !strings.Contains(res.Summary, "<modified-files>\nsrc/server.ts\ntest/health.test.ts\n</modified-files>") {
		t.Errorf("summary:\n%s", res.Summary)
	}
	// Compacting again at the new leaf: it is a compaction, so nothing to do.
	_, stderr, code = skein(t, "session", "compact", f)
	if code != 1 || !strings.Contains(stderr, "Nothing to compact") {
		t.Errorf("second compact: exit %d %s", code, stderr)
	}
	// --dry-run writes nothing.
	g := copyInto(t, fixture(t, webapp, "2026-03-02"))
	gb, _ := os.ReadFile(g)
	if _, _, code := skein(t, "session", "compact", g, "--dry-run", "--keep-tokens", "10"); code != 0 {
		t.Errorf("dry run exit %d", code)
	}
	if ga, _ := os.ReadFile(g); !bytes.Equal(ga, gb) {
		t.Error("dry run wrote")
	}
	// pi 1.6.0 has nothing to compact when everything fits in the kept
	// tokens: refused, nothing written.
	_, stderr, code = skein(t, "session", "compact", g)
	if ga, _ := os.ReadFile(g); code != 1 || !strings.Contains(stderr, "Nothing to compact") || !bytes.Equal(ga, gb) {
		t.Errorf("nothing to summarize: exit %d %s", code, stderr)
	}
	// --summarizer llm without a model says so.
	_, stderr, code = skein(t, "session", "compact", g, "--summarizer", "llm", "--keep-tokens", "10")
	if code != 1 || !strings.Contains(stderr, "no language model configured") {
		t.Errorf("llm without a model: exit %d %s", code, stderr)
	}
}

// A session with a header and no entries has nothing to compact: compact
// says so, writes nothing and exits 1 (it indexed an empty entry list).
func TestCompactHeaderOnly(t *testing.T) {
	f := copyInto(t, "../testdata/pi/broken/header-only.jsonl")
	before, _ := os.ReadFile(f)
	for _, args := range [][]string{
		{"session", "compact", "--summarizer", "extractive", f},
		{"session", "compact", "--summarizer", "extractive", "--dry-run", f},
		{"session", "compact", "--summarizer", "extractive", "--dry-run", "--json", f},
	} {
		out, stderr, code := skein(t, args...)
		if code != 1 || !strings.Contains(stderr, "nothing to compact") || !strings.Contains(stderr, "no entries") || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, stderr)
		}
	}
	if after, _ := os.ReadFile(f); !bytes.Equal(after, before) {
		t.Error("the file changed")
	}
}

// TestCompactRefusesAStaleLeaf: an agent appends to the session while the
// model writes its summary; `session compact` then writes nothing and says
// why, and with --leaf it compacts at the entry named all the same.
func TestCompactRefusesAStaleLeaf(t *testing.T) {
	src := fixture(t, webapp, "2026-03-02")
	data, _ := os.ReadFile(src)
	path := filepath.Join(t.TempDir(), filepath.Base(src))
	os.WriteFile(path, data, 0o644)
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	leaf := s.Entry(s.Leaf()).ID
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
