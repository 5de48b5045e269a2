package tui

import (
	"os"
	"regexp"
	"testing"
)

// One number reads the same wherever it stands: the input tokens of a
// session in its header ("53k in") are what its stats say, not 52.6k
// beside 53k.
func TestTokensReadTheSameEverywhere(t *testing.T) {
	dir, err := CopyDemo()
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	m := loaded(t, 120, 40, true, dir)
	openFixture(t, m, "Rate limiting")
	in := regexp.MustCompile(`([0-9.]+[kM]?) in`)
	header := in.FindStringSubmatch(plain(m))
	run(m, press(m, "S"))
	stats := regexp.MustCompile(`tokens +([0-9.]+[kM]?) in`).FindStringSubmatch(plain(m))
	if header == nil || stats == nil || header[1] != stats[1] {
		t.Errorf("input tokens: %q in the header, %q in the stats:\n%s", header, stats, plain(m))
	}
}
