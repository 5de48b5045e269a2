package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"skein/internal/synth"
	skeinstore "skein/store"
)

// skein search finds messages across the store by words at word starts,
// ranks them, and its JSON's match ranges point at the words in the
// snippet.
func TestSearch(t *testing.T) {
	out, _, code := skein(t, "search", "--json", "redis", "../testdata/pi/store")
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
	out, _, _ = skein(t, "search", "--json", "redis role:assistant", "../testdata/pi/store")
	if strings.Contains(out, `"role":"user"`) || !strings.Contains(out, `"role":"assistant"`) {
		t.Errorf("role:assistant: %s", out)
	}
	out, _, _ = skein(t, "search", `"redis is not running"`, "../testdata/pi/store")
	if !strings.Contains(out, "Redis is not running here") {
		t.Errorf("a phrase: %s", out)
	}
	out, _, _ = skein(t, "search", "--limit", "1", `re:SQL[a-z]+`, "../testdata/pi/store")
	if strings.Count(out, " --entry ") != 1 {
		t.Errorf("--limit 1 with a pattern: %s", out)
	}
	out, _, code = skein(t, "search", "zzzzqqqq", "../testdata/pi/store")
	if code != 0 || !strings.Contains(out, "no message matches") {
		t.Errorf("no match: %q exit %d", out, code)
	}
	_, errOut, code := skein(t, "search", "re:(", "../testdata/pi/store")
	if code != 2 || !strings.Contains(errOut, "re:") {
		t.Errorf("a bad pattern: %q exit %d", errOut, code)
	}
}

// After an agent appends to two sessions, the next session list shows
// their new modified time and counts without reading the unchanged files
// again, and skein search finds exactly the appended messages, with their
// entry ids, reading only what was appended.
func TestSearchAfterAppends(t *testing.T) {
	store := t.TempDir()
	if err := synth.CopyTree("../testdata/pi/store", store); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv("SKEIN_DEBUG", "index")
	before, _, code := skeinIn(t, home, "session", "list", "--json", store)
	if code != 0 {
		t.Fatalf("list: exit %d", code)
	}
	if _, _, code := skeinIn(t, home, "search", "--json", "redis", store); code != 0 {
		t.Fatalf("search: exit %d", code)
	}
	type rec struct {
		Path         string
		Modified     string
		MessageCount int
	}
	parse := func(out string) map[string]rec {
		var rs []rec
		if err := json.Unmarshal([]byte(out), &rs); err != nil {
			t.Fatal(err)
		}
		m := map[string]rec{}
		for _, r := range rs {
			m[r.Path] = r
		}
		return m
	}
	old := parse(before)
	// Two v3 sessions grow by a message each, as pi appends.
	var grown []string
	for p := range old {
		if len(grown) < 2 {
			if b, _ := os.ReadFile(p); strings.Contains(string(b[:min(len(b), 300)]), `"version":3`) {
				grown = append(grown, p)
			}
		}
	}
	sort.Strings(grown)
	want := map[string]string{}
	for k, p := range grown {
		sess, err := skeinstore.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("feed000%d", k)
		line := fmt.Sprintf(`{"type":"message","id":"%s","parentId":"%s","timestamp":"2026-12-01T10:00:0%d.000Z","message":{"role":"user","content":"the quokka count is %d","timestamp":%d}}`+"\n", id, sess.Entry(sess.Len()-1).ID, k, k, 1796119200000+k)
		f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(line)
		f.Close()
		want[p] = id
	}
	after, errOut, _ := skeinIn(t, home, "session", "list", "--json", store)
	if !strings.Contains(errOut, fmt.Sprintf("list index: 0 of %d files read whole, 2 from where the index stopped", len(old))) {
		t.Errorf("the list read more than the appends: %s", errOut)
	}
	now := parse(after)
	for p, r := range now {
		o := old[p]
		if _, ok := want[p]; ok {
			if r.MessageCount != o.MessageCount+1 || r.Modified == o.Modified {
				t.Errorf("%s: %d messages, modified %s; was %d, %s", p, r.MessageCount, r.Modified, o.MessageCount, o.Modified)
			}
		} else if r != o {
			t.Errorf("%s changed: %+v, was %+v", p, r, o)
		}
	}
	out, errOut, _ := skeinIn(t, home, "search", "--json", "quokka", store)
	if !strings.Contains(errOut, "text index: 0 of") || !strings.Contains(errOut, "files read whole, 2 from where the index stopped") {
		t.Errorf("the search read more than the appends: %s", errOut)
	}
	var hits []struct{ Path, EntryID, Role string }
	if err := json.Unmarshal([]byte(out), &hits); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, h := range hits {
		got[h.Path] = h.EntryID
	}
	if len(hits) != 2 || got[grown[0]] != want[grown[0]] || got[grown[1]] != want[grown[1]] {
		t.Errorf("quokka: %+v, want %v", hits, want)
	}
}
