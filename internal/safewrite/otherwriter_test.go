package safewrite

import (
	"os"
	"testing"
)

type beforeWrite struct {
	*faulty
	before func()
}

func (b *beforeWrite) Write(p []byte) (int, error) { b.before(); return b.faulty.Write(p) }

// Another writer (pi takes no lock) appends a whole line between
// the caller's size and skein's write; skein's write then fails halfway.
// The failed half-line is taken back from after that line: the file is
// what it was plus the other writer's line, whole.
func TestAppendAfterAnotherWritersLineIsTakenBack(t *testing.T) {
	const before, line, other = "one\n", "mine, a line cut short\n", "theirs\n"
	path, f := open(t, before)
	err := Append(&beforeWrite{faulty: &faulty{File: f, budget: 5}, before: func() {
		g, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		g.WriteString(other)
		g.Close()
	}}, int64(len(before)), []byte(line))
	got, _ := os.ReadFile(path)
	if string(got) != before+other || err == nil {
		t.Errorf("a failed append left %q (err %v)", got, err)
	}
}
