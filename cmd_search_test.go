package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// skein search finds messages across the store by words at word starts,
// ranks them, and its JSON's match ranges point at the words in the
// snippet.
func TestSearch(t *testing.T) {
	out, _, code := skein(t, "search", "--json", "redis", "testdata/pi/store")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var hits []struct {
		Path, Format, SessionID, EntryID, Role, Snippet string
		Matches                                         [][2]int
	}
	if err := json.Unmarshal([]byte(out), &hits); err != nil {
		t.Fatal(err)
	}
	if len(hits) < 3 {
		t.Fatalf("%d hits", len(hits))
	}
	for _, h := range hits {
		if h.Path == "" || h.Format != "pi" || h.SessionID == "" || h.EntryID == "" || h.Role == "" || len(h.Matches) == 0 {
			t.Errorf("hit %+v", h)
		}
		for _, m := range h.Matches {
			if got := strings.ToLower(h.Snippet[m[0]:m[1]]); got != "redis" {
				t.Errorf("a match range points at %q", got)
			}
		}
	}
	// Narrowed by role; a phrase; a pattern; nothing.
	out, _, _ = skein(t, "search", "--json", "redis role:assistant", "testdata/pi/store")
	if strings.Contains(out, `"role":"user"`) || !strings.Contains(out, `"role":"assistant"`) {
		t.Errorf("role:assistant: %s", out)
	}
	out, _, _ = skein(t, "search", `"redis is not running"`, "testdata/pi/store")
	if !strings.Contains(out, "Redis is not running here") {
		t.Errorf("a phrase: %s", out)
	}
	out, _, _ = skein(t, "search", "--limit", "1", `re:SQL[a-z]+`, "testdata/pi/store")
	if strings.Count(out, "\n    ") != 1 {
		t.Errorf("--limit 1 with a pattern: %s", out)
	}
	out, _, code = skein(t, "search", "zzzzqqqq", "testdata/pi/store")
	if code != 0 || !strings.Contains(out, "no message matches") {
		t.Errorf("no match: %q exit %d", out, code)
	}
	_, errOut, code := skein(t, "search", "re:(", "testdata/pi/store")
	if code != 2 || !strings.Contains(errOut, "re:") {
		t.Errorf("a bad pattern: %q exit %d", errOut, code)
	}
}
