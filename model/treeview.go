package model

import (
	"fmt"
	"strings"
)

// TreeFilter is one of the filters of pi's /tree view, which skein's tree
// offers for every format.
type TreeFilter int

const (
	FilterDefault  TreeFilter = iota // hides settings and bookkeeping entries
	FilterNoTools                    // default minus tool results
	FilterUserOnly                   // user messages only
	FilterLabeled                    // labeled entries only
	FilterAll                        // everything
)

var filterNames = [...]string{"default", "no-tools", "user-only", "labeled-only", "all"}

func (f TreeFilter) String() string { return filterNames[f] }

// ParseTreeFilter reads a filter name.
func ParseTreeFilter(s string) (TreeFilter, bool) {
	for i, n := range filterNames {
		if n == s {
			return TreeFilter(i), true
		}
	}
	return 0, false
}

// TreeRow is one visible line of pi's /tree view.
type TreeRow struct {
	Entry        int
	Indent       int
	ShowConn     bool
	IsLast       bool
	Gutters      *Gutters
	VirtualChild bool
	OnActivePath bool
	Foldable     bool
	Folded       bool
}

// Gutter is a vertical line drawn at a level for a branch still open above.
type Gutter struct {
	Position int
	Show     bool
}

// Gutters is a row's gutters, the last added first: a row shares those of
// the row above it that it inherits (pi copies the list for every row, so
// that a tree branching 20,000 levels deep needed 20,000 copies of up to
// 20,000 gutters). nil is none.
type Gutters struct {
	Gutter
	Up *Gutters
}

// TreeView lays the entry tree out as pi's /tree selector does: the branch
// with the active leaf first, single-child chains flat, branch points
// indented, with filters and folding.
type TreeView struct {
	s             *Session
	Leaf          int
	Filter        TreeFilter
	Folded        map[int]bool
	Rows          []TreeRow
	MultipleRoots bool
	all           []int  // every entry in pre-order, active branch first
	active        []bool // by entry: on the path to the leaf
	// The visible tree, by entry (slices, not maps: a 100 MB session has
	// 150,000 entries, and maps made a fold take a third of a second):
	// visParent[n] is a visible entry's nearest visible ancestor (-1: a
	// root); the children of a (-1 for the roots) are
	// kidFlat[kidStart[a+1]:kidStart[a+2]], in the order shown.
	visParent []int
	kidStart  []int
	kidFlat   []int
	parent    []int // by entry, read once from the session
	// hidden marks what the format's tree leaves out unless it is the leaf
	// (pi's /tree: assistant messages with no text and no error or abort).
	hidden []bool
	// class is what the filters ask of each entry (the class* bits),
	// found once when the view is made, not at every fold.
	class []uint8
}

// The bits of TreeView.class.
const (
	classUsage uint8 = 1 << iota
	classSettings
	classUser
	classToolResult
	classLabeled
)

// kids are the visible children of a (-1: the visible roots).
func (v *TreeView) kids(a int) []int {
	if a+2 >= len(v.kidStart) || a < -1 {
		return nil
	}
	return v.kidFlat[v.kidStart[a+1]:v.kidStart[a+2]]
}

// NewTreeView lays out the tree with the given active leaf.
func (s *Session) NewTreeView(leaf int, filter TreeFilter) *TreeView {
	v := &TreeView{s: s, Leaf: leaf, Filter: filter, Folded: map[int]bool{}}
	v.flatten()
	v.Apply()
	return v
}

func (v *TreeView) flatten() {
	s := v.s
	v.parent = make([]int, s.Len())
	for i := range v.parent {
		v.parent[i] = s.Parent(i)
	}
	v.hidden = s.TreeHidden()
	v.class = make([]uint8, s.Len())
	for i := range v.class {
		e := s.Entry(i)
		var c uint8
		switch e.Kind {
		case EntryUsage:
			c = classUsage
		case EntryLabel, EntryContextEdit, EntryCustom, EntryModelChange, EntryThinkingLevel, EntryTitle:
			c = classSettings
		case EntryMessage:
			switch e.Role {
			case RoleUser:
				c = classUser
			case RoleToolResult:
				c = classToolResult
			}
		}
		if _, ok := s.Label(i); ok {
			c |= classLabeled
		}
		v.class[i] = c
	}
	v.active = make([]bool, s.Len())
	for i := v.Leaf; i >= 0; i = v.parent[i] {
		v.active[i] = true
	}
	// containsActive: a node is on the active path exactly when its subtree
	// holds the leaf.
	ordered := func(nodes []int) []int {
		out := make([]int, 0, len(nodes))
		for _, n := range nodes {
			if v.active[n] {
				out = append(out, n)
			}
		}
		for _, n := range nodes {
			if !v.active[n] {
				out = append(out, n)
			}
		}
		return out
	}
	v.all = v.all[:0]
	stack := []int{}
	roots := ordered(s.Roots())
	for k := len(roots) - 1; k >= 0; k-- {
		stack = append(stack, roots[k])
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		v.all = append(v.all, n)
		ch := ordered(s.Children(n))
		for k := len(ch) - 1; k >= 0; k-- {
			stack = append(stack, ch[k])
		}
	}
}

// Apply recomputes the visible rows after a change of filter or folds.
func (v *TreeView) Apply() {
	visible := make([]int, 0, len(v.all))
	for _, n := range v.all {
		if v.passes(n) {
			visible = append(visible, n)
		}
	}
	n := len(v.parent)
	if len(v.Folded) > 0 {
		skip := make([]bool, n)
		for _, x := range v.all {
			if p := v.parent[x]; p >= 0 && (v.Folded[p] || skip[p]) {
				skip[x] = true
			}
		}
		kept := visible[:0]
		for _, x := range visible {
			if !skip[x] {
				kept = append(kept, x)
			}
		}
		visible = kept
	}
	isVisible := make([]bool, n)
	for _, x := range visible {
		isVisible[x] = true
	}
	v.visParent = make([]int, n)
	v.kidStart = make([]int, n+2)
	for _, x := range visible {
		a := v.parent[x]
		for a >= 0 && !isVisible[a] {
			a = v.parent[a]
		}
		v.visParent[x] = a
		v.kidStart[a+2]++
	}
	for b := 1; b < len(v.kidStart); b++ {
		v.kidStart[b] += v.kidStart[b-1]
	}
	v.kidFlat = make([]int, len(visible))
	fill := make([]int, n+1)
	copy(fill, v.kidStart[:n+1])
	for _, x := range visible {
		b := v.visParent[x] + 1
		v.kidFlat[fill[b]] = x
		fill[b]++
	}
	rootsVis := v.kids(-1)
	v.MultipleRoots = len(rootsVis) > 1
	v.Rows = v.Rows[:0]
	type item struct {
		n                          int
		indent                     int
		justBranched, conn, isLast bool
		gutters                    *Gutters
		virtual                    bool
	}
	var stack []item
	for k := len(rootsVis) - 1; k >= 0; k-- {
		stack = append(stack, item{rootsVis[k], b2i(v.MultipleRoots), v.MultipleRoots, v.MultipleRoots, k == len(rootsVis)-1, nil, v.MultipleRoots})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		v.Rows = append(v.Rows, TreeRow{Entry: it.n, Indent: it.indent, ShowConn: it.conn, IsLast: it.isLast,
			Gutters: it.gutters, VirtualChild: it.virtual, OnActivePath: v.active[it.n], Folded: v.Folded[it.n],
			Foldable: v.isFoldable(it.n)})
		children := v.kids(it.n)
		multi := len(children) > 1
		childIndent := it.indent
		if multi || (it.justBranched && it.indent > 0) {
			childIndent = it.indent + 1
		}
		gutters := it.gutters
		if it.conn && !it.virtual {
			display := it.indent
			if v.MultipleRoots {
				display = max(0, it.indent-1)
			}
			gutters = &Gutters{Gutter{max(0, display-1), !it.isLast}, it.gutters}
		}
		for k := len(children) - 1; k >= 0; k-- {
			stack = append(stack, item{children[k], childIndent, multi, multi, k == len(children)-1, gutters, false})
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func b2i8(b bool) int8 { return int8(b2i(b)) }

func (v *TreeView) isFoldable(n int) bool {
	if len(v.kids(n)) == 0 {
		return false
	}
	p := v.visParent[n]
	if p < 0 {
		return true
	}
	return len(v.kids(p)) > 1
}

func (v *TreeView) passes(n int) bool {
	c := v.class[n]
	if c&classUsage != 0 {
		return false // pi 1.6.0 never shows usage entries in /tree
	}
	if v.hidden != nil && v.hidden[n] && n != v.Leaf {
		return false
	}
	settings := c&classSettings != 0
	switch v.Filter {
	case FilterUserOnly:
		return c&classUser != 0
	case FilterNoTools:
		return !settings && c&classToolResult == 0
	case FilterLabeled:
		return c&classLabeled != 0
	case FilterAll:
		return true
	}
	return !settings
}

// Prefix draws a row's branch glyphs as pi does (three columns a level).
func (v *TreeView) Prefix(r TreeRow) string {
	display := r.Indent
	if v.MultipleRoots {
		display = max(0, r.Indent-1)
	}
	conn := r.ShowConn && !r.VirtualChild
	connPos := -1
	if conn {
		connPos = display - 1
	}
	// The gutter at each level (the first added wins, as in pi's find),
	// looked up once a row rather than once a column.
	var at []int8 // 0 none, 1 blank, 2 a line
	if r.Gutters != nil {
		at = make([]int8, display)
		for g := r.Gutters; g != nil; g = g.Up {
			if g.Position < display {
				at[g.Position] = 1 + b2i8(g.Show)
			}
		}
	}
	var b strings.Builder
	b.Grow(display * 3)
	for i := 0; i < display*3; i++ {
		level, pos := i/3, i%3
		var g int8
		if at != nil {
			g = at[level]
		}
		switch {
		case g != 0:
			if pos == 0 && g == 2 {
				b.WriteString("│")
			} else {
				b.WriteByte(' ')
			}
		case conn && level == connPos:
			switch pos {
			case 0:
				if r.IsLast {
					b.WriteString("└")
				} else {
					b.WriteString("├")
				}
			case 1:
				switch {
				case r.Folded:
					b.WriteString("⊞")
				case r.Foldable:
					b.WriteString("⊟")
				default:
					b.WriteString("─")
				}
			default:
				b.WriteByte(' ')
			}
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// Part is a piece of a row's text with the role it plays, for styling.
type Part struct {
	Text string
	Role string // "user", "assistant", "muted", "dim", "error", "custom", "compaction", "warning", "label", "marker"
}

// RowParts is the text pi's /tree shows for an entry after the prefix: the
// active-path marker, the label and the entry's one-line preview.
func (v *TreeView) RowParts(r TreeRow, home string) []Part {
	var parts []Part
	if r.Folded && !(r.ShowConn && !r.VirtualChild) {
		parts = append(parts, Part{"⊞ ", "marker"})
	}
	if r.OnActivePath {
		parts = append(parts, Part{"• ", "marker"})
	}
	if l, ok := v.s.Label(r.Entry); ok {
		parts = append(parts, Part{"[" + l + "] ", "warning"})
	}
	return append(parts, v.s.TreeText(r.Entry, home)...)
}

// EntryText is the text the format's tree shows for entry n.
func (v *TreeView) EntryText(n int, home string) []Part { return v.s.TreeText(n, home) }

// NearestVisible is the row of entry n, or of its nearest visible ancestor,
// or the last row: where pi's /tree puts its cursor.
func (v *TreeView) NearestVisible(n int) int {
	if len(v.Rows) == 0 {
		return 0
	}
	rows := make(map[int]int, len(v.Rows))
	for k, r := range v.Rows {
		rows[r.Entry] = k
	}
	for seen := 0; n >= 0 && seen <= len(v.parent); seen++ {
		if k, ok := rows[n]; ok {
			return k
		}
		n = v.parent[n]
	}
	return len(v.Rows) - 1
}

// StatusLabels is the filter note pi shows after the position.
func (v *TreeView) StatusLabels() string {
	switch v.Filter {
	case FilterNoTools:
		return " [no-tools]"
	case FilterUserOnly:
		return " [user]"
	case FilterLabeled:
		return " [labeled]"
	case FilterAll:
		return " [all]"
	}
	return ""
}

// Lines renders the view as pi's /tree draws it without colour: a cursor
// column marking the selected row, the rows, and the position line.
func (v *TreeView) Lines(selected int, home string) []string {
	if len(v.Rows) == 0 {
		return []string{"  No entries found", "  (0/0)" + v.StatusLabels()}
	}
	lines := make([]string, 0, len(v.Rows)+1)
	for k, r := range v.Rows {
		var b strings.Builder
		if k == selected {
			b.WriteString("› ")
		} else {
			b.WriteString("  ")
		}
		b.WriteString(v.Prefix(r))
		for _, p := range v.RowParts(r, home) {
			b.WriteString(p.Text)
		}
		lines = append(lines, b.String())
	}
	return append(lines, fmt.Sprintf("  (%d/%d)%s", selected+1, len(v.Rows), v.StatusLabels()))
}

// IsBranchPoint reports whether entry n has more than one visible child.
func (v *TreeView) IsBranchPoint(n int) bool { return len(v.kids(n)) > 1 }

// With lays the tree out again with another filter and folds, as a new
// view: the work of a fold or a filter change, which a caller may do away
// from the goroutine that draws v (the two share only what neither
// changes). folded becomes the new view's.
func (v *TreeView) With(filter TreeFilter, folded map[int]bool) *TreeView {
	n := &TreeView{s: v.s, Leaf: v.Leaf, Filter: filter, Folded: folded, all: v.all, active: v.active,
		parent: v.parent, hidden: v.hidden, class: v.class}
	n.Apply()
	return n
}
