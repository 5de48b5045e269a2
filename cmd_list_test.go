package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestListJSON(t *testing.T) {
	out, _, code := skein(t, "session", "list", "--json", "testdata/pi/store")
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
