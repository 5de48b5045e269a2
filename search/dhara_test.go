package search

import (
	"path/filepath"
	"testing"

	"skein/internal/synth"
	"skein/store"
)

// The index on a store of pi files and Dhara session folders finds what
// reading every session finds, cold, warm, and after a folder changed.
func TestIndexMixedStore(t *testing.T) {
	dir, files := fixtures(t)
	if err := synth.CopyTree("../testdata/dhara/store", filepath.Join(dir, "dhara")); err != nil {
		t.Fatal(err)
	}
	found, err := store.Discover([]string{filepath.Join(dir, "dhara")})
	if err != nil || len(found) < 8 {
		t.Fatalf("discover: %v, %d folders", err, len(found))
	}
	files = append(files, found...)
	// Claude Code's and Codex's logs, read whole by the index.
	claude := filepath.Join(dir, ".claude", "projects", "-path-to-Demo")
	codex := filepath.Join(dir, "codex", "2026", "01", "02")
	if err := synth.CopyTree("../testdata/claude", claude); err != nil {
		t.Fatal(err)
	}
	if err := synth.CopyTree("../testdata/codex", codex); err != nil {
		t.Fatal(err)
	}
	others, _ := store.Discover([]string{claude, codex})
	n := 0
	for _, f := range others {
		if b, _ := store.Find(f); b.Format() == store.FormatClaude || b.Format() == store.FormatCodex {
			files = append(files, f)
			n++
		}
	}
	if n < 5 {
		t.Fatalf("%d Claude Code and Codex logs", n)
	}
	queries := append([]string{"TOML", "tool:bash", "role:toolResult commit", `"config loader"`, "re:toml\\.\\w+", "größe", "placeholders", "zsh", "tool:Bash", "TODOs"}, indexQueries...)
	idx := t.TempDir()
	bruteAll := func(query string, q *Query) []Hit { return brute(t, q, files) }
	checkIndex(t, idx, files, queries, "cold", bruteAll)
	x := OpenIndex(idx)
	if err := x.Update(files, nil); err != nil {
		t.Fatal(err)
	}
	if x.Reads+x.PartReads != 0 {
		t.Errorf("warm: %d read whole, %d in part, want none", x.Reads, x.PartReads)
	}
	x.Close()
	// A label written to a folder: that folder is read again, the rest not.
	linear := filepath.Join(dir, "dhara", "linear")
	s, err := store.Open(linear)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Label(linear, s.Entry(1).ID, "wombat-dhara"); err != nil {
		t.Fatal(err)
	}
	checkIndex(t, idx, files, append(queries, "wombat"), "after a label", bruteAll)
	x = OpenIndex(idx)
	defer x.Close()
	if err := x.Update(files, nil); err != nil {
		t.Fatal(err)
	}
	if x.Reads+x.PartReads != 0 {
		t.Errorf("warm again: %d read whole, %d in part, want none", x.Reads, x.PartReads)
	}
}
