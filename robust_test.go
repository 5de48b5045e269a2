package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// A session with a header and no entries has nothing to compact: compact
// says so, writes nothing and exits 1 (it indexed an empty entry list).
func TestCompactHeaderOnly(t *testing.T) {
	f := copyInto(t, "testdata/pi/broken/header-only.jsonl")
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
