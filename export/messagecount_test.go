package export

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"skein/store"
)

// The page's message count is the session's, as its stats and the screens
// count it: not the number of blocks drawn (a compaction's summary, each
// branch's copy of a shared message).
func TestHTMLCountsMessagesAsTheStats(t *testing.T) {
	files, _ := filepath.Glob("../tui/demo/*/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no demo sessions")
	}
	for _, f := range files {
		s, err := store.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := HTML(&b, s, Options{}); err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`Messages</[^>]*>\s*<[^>]*>(\d+)<`).FindSubmatch(b.Bytes())
		if m == nil {
			m = regexp.MustCompile(`Messages\D{0,80}?(\d+)`).FindSubmatch(b.Bytes())
		}
		if want := s.Stats().Messages; m == nil || string(m[1]) != strconv.Itoa(want) {
			t.Errorf("%s: the page says %q messages, the stats %d", filepath.Base(f), m, want)
		}
	}
}
