package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// A hit names its session as the list does (title, project, date, agent)
// and the command that opens the TUI at its message; --json keeps its
// fields and gains these.
func TestSearchHitsSayWhatAndHowToOpen(t *testing.T) {
	out, errOut, code := skein(t, "search", "--limit", "1", "redis", "../testdata/pi/store")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	abs, _ := filepath.Abs("../testdata/pi/store/--home-dev-webapp--/2026-03-03T14-00-00-000Z_019cb3ff-9f00-75a9-b935-ef0a4c00fbb4.jsonl")
	for _, want := range []string{"Cache: Redis vs SQLite", "/home/dev/webapp", "2026-03-03", "  ·  pi\n", "    assistant  ", "    skein " + abs + " --entry "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	out, _, _ = skein(t, "search", "--json", "redis", "../testdata/pi/store")
	var hits []map[string]any
	if err := json.Unmarshal([]byte(out), &hits); err != nil || len(hits) == 0 {
		t.Fatalf("%v: %s", err, out)
	}
	for _, h := range hits {
		for _, k := range []string{"path", "format", "sessionId", "entryId", "role", "snippet", "matches", "title", "agent", "project", "date", "open"} {
			if _, ok := h[k]; !ok {
				t.Errorf("no %s in %v", k, h)
			}
		}
		if h["title"] != "Cache: Redis vs SQLite" || h["agent"] != "pi" || h["project"] != "/home/dev/webapp" ||
			!strings.HasPrefix(h["date"].(string), "2026-03-03T14:") {
			t.Errorf("hit %v", h)
		}
		p, _ := filepath.Abs(h["path"].(string))
		if h["open"] != "skein "+p+" --entry "+h["entryId"].(string) {
			t.Errorf("open: %v", h["open"])
		}
	}
}

// The words of an unquoted query are one query, up to the first path;
// agent: narrows to one agent's sessions.
func TestSearchTakesTheWords(t *testing.T) {
	quoted, _, code := skein(t, "search", "--json", "redis path", "../testdata/pi/store")
	if code != 0 || !strings.Contains(quoted, `"entryId"`) {
		t.Fatalf("quoted: exit %d: %s", code, quoted)
	}
	words, errOut, code := skein(t, "search", "--json", "redis", "path", "../testdata/pi/store")
	if code != 0 || words != quoted {
		t.Errorf("unquoted: exit %d %s\n%s\nwant\n%s", code, errOut, words, quoted)
	}
	// Flags after the words, a query term holding a dot, no path at all
	// (the default store: none here).
	if out, errOut, code := skein(t, "search", "redis", `re:doc.er`, "../testdata/pi/store", "--json"); code != 0 || !strings.Contains(out, "docker") {
		t.Errorf("a pattern after a word: exit %d %s %s", code, out, errOut)
	}
	if _, errOut, code := skein(t, "search", "parser", "token"); code != 0 {
		t.Errorf("no path: exit %d %s", code, errOut)
	}
	// A missing file is a path still, not a word.
	if _, errOut, code := skein(t, "search", "redis", "nowhere/x.jsonl"); code == 0 || !strings.Contains(errOut, "no such file") {
		t.Errorf("a missing path: exit %d %s", code, errOut)
	}
	files, _ := filepath.Glob("../testdata/codex/*.jsonl")
	claude, _ := filepath.Glob("../testdata/claude/*.jsonl")
	args := append([]string{"search", "--json", "the", "agent:CODEX"}, append(files, claude...)...)
	out, errOut, code := skein(t, args...)
	var hits []struct{ Format, Agent string }
	if err := json.Unmarshal([]byte(out), &hits); err != nil || code != 0 || len(hits) == 0 {
		t.Fatalf("agent:CODEX: exit %d %v %s %s", code, err, out, errOut)
	}
	for _, h := range hits {
		if h.Format != "codex" || h.Agent != "Codex" {
			t.Errorf("agent:CODEX found %+v", h)
		}
	}
}

// --entry opens one session: with a folder, or no path, it is a usage
// error before any UI starts.
func TestEntryNeedsOneSession(t *testing.T) {
	for _, args := range [][]string{{"--entry", "abc", "../testdata/pi/store"}, {"../testdata/pi/store", "--entry"}} {
		if _, errOut, code := skein(t, args...); code != 2 || !strings.Contains(errOut, "--entry") {
			t.Errorf("%v: exit %d %s", args, code, errOut)
		}
	}
}
