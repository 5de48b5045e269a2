package safewrite

import (
	"errors"
	"os"
	"testing"
)

// reserving is a file that reserves space itself, as a writer's file
// that its tests fail at that step does.
type reserving struct {
	*faulty
	err   error
	asked int
}

func (r *reserving) Reserve(off, n int64) error { r.asked++; return r.err }

// Append asks a File that reserves space itself, and a refusal there
// stops it before a byte is written: the file is as it was.
func TestAppendAsksTheFilesOwnReserve(t *testing.T) {
	const before, line = "one\n", "two\n"
	path, f := open(t, before)
	r := &reserving{faulty: &faulty{File: f, budget: len(line)}, err: errFull}
	if err := Append(r, int64(len(before)), []byte(line)); !errors.Is(err, errFull) || r.asked != 1 {
		t.Fatalf("a file with no room: err %v, asked %d times", err, r.asked)
	}
	if got, _ := os.ReadFile(path); string(got) != before {
		t.Errorf("a refused reserve left %q", got)
	}
	r.err = nil
	if err := Append(r, int64(len(before)), []byte(line)); err != nil || r.asked != 2 {
		t.Fatalf("a file with room: err %v, asked %d times", err, r.asked)
	}
	if got, _ := os.ReadFile(path); string(got) != before+line {
		t.Errorf("the append left %q", got)
	}
}
