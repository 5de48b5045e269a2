package export

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"skein/store"
)

// A Kilo CLI session (Kilo 7.7.9's kilo.db) and a session of OpenCode's
// older layout export as markdown, HTML and JSON with the prompt, each
// tool call's command and its result, and the answer.
func TestExportKiloAndOpenCodeLegacy(t *testing.T) {
	db, _ := filepath.Abs("../testdata/agentgen/kilo/fixtures/parallel/kilo/kilo.db")
	kilo, err := store.Discover([]string{db})
	if err != nil || len(kilo) != 1 {
		t.Fatalf("%v %v", kilo, err)
	}
	legacy, _ := filepath.Glob("../testdata/opencode/legacy-home/.local/share/opencode/storage/session/*/*.json")
	for _, p := range append(kilo, legacy...) {
		s, err := store.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		var md, page, js bytes.Buffer
		if err := Markdown(&md, s, Options{}); err != nil {
			t.Fatal(err)
		}
		if err := HTML(&page, s, Options{}); err != nil {
			t.Fatal(err)
		}
		if err := JSON(&js, s, time.Unix(1e9, 0)); err != nil {
			t.Fatal(err)
		}
		// The parallel scenario's session, or the subagent scenario's
		// parent and child.
		want := []string{"Show me a", "cat c", "No such file or directory", "does not exist"}
		if !bytes.Contains(js.Bytes(), []byte("c.txt")) {
			want = []string{"hello from x"}
		}
		for _, w := range want {
			for name, out := range map[string][]byte{"markdown": md.Bytes(), "html": page.Bytes(), "json": js.Bytes()} {
				if !bytes.Contains(out, []byte(w)) {
					t.Errorf("%s: the %s lacks %q", p, name, w)
				}
			}
		}
	}
}
