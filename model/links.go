package model

import (
	"slices"
	"sync"
)

// Links is a session's tree held as each entry's parent, with the children
// and the roots worked out once, on first use. A format's Session embeds it
// and so implements Source's Parent, Children and Roots, which every format
// that keeps its tree as parents would otherwise write again.
type Links struct {
	parent   []int32
	once     sync.Once
	children [][]int
	roots    []int
}

// SetParents makes p the entries' parents, -1 for a root. The format may go
// on writing into p while it links (the slice is shared, not copied);
// children and roots are read from it on the first call that needs them.
func (l *Links) SetParents(p []int32) { l.parent = p }

// Parent is entry i's parent, -1 for a root.
func (l *Links) Parent(i int) int { return int(l.parent[i]) }

// Children are entry i's children in entry order.
func (l *Links) Children(i int) []int { l.once.Do(l.build); return l.children[i] }

// Roots are the entries with no parent, in entry order.
func (l *Links) Roots() []int { l.once.Do(l.build); return l.roots }

func (l *Links) build() {
	l.children = make([][]int, len(l.parent))
	for i, p := range l.parent {
		if p < 0 {
			l.roots = append(l.roots, i)
		} else {
			l.children[p] = append(l.children[p], i)
		}
	}
}

// Tips counts the entries with no children: the ends of the branches.
func (l *Links) Tips() int {
	l.once.Do(l.build)
	n := 0
	for _, c := range l.children {
		if len(c) == 0 {
			n++
		}
	}
	return n
}

// Path is the entries from the root to entry i, root first.
func (l *Links) Path(i int) []int {
	n := 0
	for j := i; j >= 0; j = int(l.parent[j]) {
		n++
	}
	out := make([]int, n)
	for j := i; j >= 0; j = int(l.parent[j]) {
		n--
		out[n] = j
	}
	return out
}

// BreakCycles makes one entry of each cycle of parents a root, so that
// the parents make a forest, and calls cut with that entry and the
// cycle's length for the format to report it. With earliest, the cut
// entry is the cycle's earliest (pi's reader, and ChatGPT's mapping read
// as pi's); else it is the one whose parent closes the walk from the
// earliest entry that leads into the cycle (a walk as Dhara's getPath
// makes it).
func BreakCycles[T ~int | ~int32](parent []T, earliest bool, cut func(i, length int)) {
	breakCycles(parent, func(cycle []int) int {
		if earliest {
			return slices.Min(cycle)
		}
		return cycle[len(cycle)-1]
	}, cut)
}

// BreakCyclesAtEntry is BreakCycles cutting, of each cycle, the entry
// where the walk from the earliest entry that leads into it comes back
// to itself: the first of the cycle's entries that walk reaches (Droid's
// and Qwen Code's files as skein reads them).
func BreakCyclesAtEntry[T ~int | ~int32](parent []T, cut func(i, length int)) {
	breakCycles(parent, func(cycle []int) int { return cycle[0] }, cut)
}

// breakCycles walks the parents from each entry in order and cuts, of
// each cycle a walk closes, the entry pick chooses of the cycle (its
// entries in the order of the walk).
func breakCycles[T ~int | ~int32](parent []T, pick func(cycle []int) int, cut func(i, length int)) {
	const (
		unseen = iota
		walking
		done
	)
	state := make([]uint8, len(parent))
	var path []int
	for start := range parent {
		if state[start] != unseen {
			continue
		}
		path = path[:0]
		i := start
		for i >= 0 && state[i] == unseen {
			state[i] = walking
			path = append(path, i)
			i = int(parent[i])
		}
		if i >= 0 && state[i] == walking {
			// The path from i on is the cycle.
			k := len(path) - 1
			for path[k] != i {
				k--
			}
			at := pick(path[k:])
			if cut != nil {
				cut(at, len(path)-k)
			}
			parent[at] = -1
		}
		for _, j := range path {
			state[j] = done
		}
	}
}
