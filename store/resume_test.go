package store_test

import (
	"testing"

	"skein/store"
)

// The line to paste resumes the session in its own folder: Claude Code
// finds a session by its project folder, and every agent runs its tools
// where it starts.
func TestResumeLineGoesToTheSessionsFolder(t *testing.T) {
	for _, c := range []struct {
		format    store.Format
		path, cwd string
		want      string
	}{
		{store.FormatClaude, "/p/0b7c1d2e.jsonl", "/home/ana/src/it's", `cd '/home/ana/src/it'\''s' && claude --resume 0b7c1d2e`},
		{store.FormatPi, "/s/a b.jsonl", "/w", `cd /w && pi --session '/s/a b.jsonl'`},
		{store.FormatPi, "/s/a.jsonl", "", `pi --session /s/a.jsonl`},
	} {
		if got := store.ResumeLine(store.ForFormat(c.format), c.path, c.cwd); got != c.want {
			t.Errorf("%s %s in %q: %s, want %s", c.format, c.path, c.cwd, got, c.want)
		}
	}
}
