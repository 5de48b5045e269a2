package model

import "sync"

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
