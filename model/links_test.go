package model

import (
	"fmt"
	"testing"
)

// Each way of breaking a cycle cuts its own entry: entry 0 leads into the
// cycle 1 -> 2 -> 3 -> 1 (each entry's parent after the arrow), which the
// walk from 0 enters at 1 and closes at 3.
func TestBreakCycles(t *testing.T) {
	for _, c := range []struct {
		name  string
		brk   func(p []int32, cut func(i, n int))
		want  string
		cutAt int
	}{
		{"earliest", func(p []int32, cut func(i, n int)) { BreakCycles(p, true, cut) }, "[1 -1 3 1]", 1},
		{"closing", func(p []int32, cut func(i, n int)) { BreakCycles(p, false, cut) }, "[1 2 3 -1]", 3},
		{"entry", func(p []int32, cut func(i, n int)) { BreakCyclesAtEntry(p, cut) }, "[1 -1 3 1]", 1},
	} {
		p := []int32{1, 2, 3, 1}
		if c.name == "entry" {
			// The walk from 0 enters the cycle 2 -> 3 -> 1 -> 2 at 2,
			// which is not its earliest entry.
			p = []int32{2, 2, 3, 1}
			c.want, c.cutAt = "[2 2 -1 1]", 2
		}
		var cuts []string
		c.brk(p, func(i, n int) { cuts = append(cuts, fmt.Sprint(i, n)) })
		if got := fmt.Sprint(p); got != c.want || len(cuts) != 1 || cuts[0] != fmt.Sprint(c.cutAt, 3) {
			t.Errorf("%s: parents %s cuts %v, want %s cut at %d", c.name, got, cuts, c.want, c.cutAt)
		}
	}
}
