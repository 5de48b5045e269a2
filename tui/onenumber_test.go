package tui

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"skein/model"
)

// demoSession opens the demo session titled title at 120x40, in a copy of
// the demo that goes when the test ends.
func demoSession(t *testing.T, title string) *Model {
	t.Helper()
	dir, err := CopyDemo()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	m := loaded(t, 120, 40, true, dir)
	openFixture(t, m, title)
	return m
}

// One number reads the same wherever it stands: the input tokens of a
// session in its header ("53k in") are what its stats say, not 52.6k
// beside 53k.
func TestTokensReadTheSameEverywhere(t *testing.T) {
	m := demoSession(t, "Rate limiting")
	in := regexp.MustCompile(`([0-9.]+[kM]?) in`)
	header := in.FindStringSubmatch(plain(m))
	run(m, press(m, "S"))
	stats := regexp.MustCompile(`tokens +([0-9.]+[kM]?) in`).FindStringSubmatch(plain(m))
	if header == nil || stats == nil || header[1] != stats[1] {
		t.Errorf("input tokens: %q in the header, %q in the stats:\n%s", header, stats, plain(m))
	}
}

// Each count on the session screen names what it counts, and a count of
// messages is of messages: the header's are the session's (the list's
// msgs, the stats'), the messages pane's are the message entries of the
// branch shown, and no third position ("entry 26 of 27") stands beside
// the panes' own.
func TestSessionScreenCountsOneThingEach(t *testing.T) {
	m := demoSession(t, "Rate limiting")
	ss := m.session
	onPath := 0
	for _, i := range ss.s.Path(ss.msgs.leaf) {
		if ss.s.Entry(i).Kind == model.EntryMessage {
			onPath++
		}
	}
	v := plain(m)
	for _, want := range []string{
		fmt.Sprintf("%d messages ·", ss.s.Stats().Messages),
		fmt.Sprintf("messages · %d of %d on this branch", onPath, onPath),
		"tree · row ",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the screen lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "entry ") && strings.Contains(v, " on this branch ·") {
		t.Errorf("a third position on the screen:\n%s", v)
	}
}
