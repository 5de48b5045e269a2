package chatgpt

import (
	"encoding/json"

	"skein/internal/jscan"
	"skein/model"
)

// node is one member of a conversation's mapping.
type node struct {
	key       string          // its key in the mapping, which the links name
	message   json.RawMessage // nil when null or absent
	parentID  string
	hasParent bool // parent is a string
	children  []string
}

// tree is a mapping's nodes linked by their parents, with every cycle
// broken, so that walking up from any node ends at a root.
type tree struct {
	nodes    []node
	index    map[string]int
	parent   []int // -1 for a root
	children [][]int
	roots    []int
	current  int    // the node the conversation was left at; -1 when there are none
	onPath   []bool // the nodes from the root down to current
}

// readTree reads a mapping, an object of nodes by id, keeping the order of
// its members; ok is false when it is not an object. A repeated key keeps
// its first place and its last value, as JSON.parse does.
func readTree(raw json.RawMessage, current string) (*tree, bool) {
	t := &tree{index: map[string]int{}}
	ok := members(raw, func(key string, val json.RawMessage) {
		n := readNode(key, val)
		if i, seen := t.index[key]; seen {
			t.nodes[i] = n
			return
		}
		t.index[key] = len(t.nodes)
		t.nodes = append(t.nodes, n)
	})
	if !ok {
		return nil, false
	}
	t.link()
	t.findPath(current)
	return t, true
}

// members calls fn with each member of a valid JSON object, in order, and
// reports whether raw is one.
func members(raw []byte, fn func(key string, val json.RawMessage)) bool {
	if len(raw) == 0 || raw[0] != '{' {
		return false
	}
	jscan.Fields(raw, func(k, v []byte) bool {
		fn(jscan.Key(k), v)
		return true
	})
	return true
}

// readNode reads one node; whatever is not an object is a node without a
// message or links.
func readNode(key string, raw json.RawMessage) node {
	n := node{key: key}
	m := objectOf(raw)
	if m == nil {
		return n
	}
	if msg := m["message"]; len(msg) > 0 && string(msg) != "null" {
		n.message = msg
	}
	n.parentID, n.hasParent = stringOf(m["parent"])
	for _, c := range arrayOf(m["children"]) {
		if s, ok := stringOf(c); ok {
			n.children = append(n.children, s)
		}
	}
	return n
}

// link finds each node's parent: its parent field when that names another
// node of the mapping, else the first node that lists it among its
// children. Cycles are broken, then each node's children are ordered as its
// children field lists them, the others after in mapping order.
func (t *tree) link() {
	n := len(t.nodes)
	claimed := make([]int, n) // the first node listing i as a child, or -1
	for i := range claimed {
		claimed[i] = -1
	}
	for i := range t.nodes {
		for _, c := range t.nodes[i].children {
			if j, ok := t.index[c]; ok && j != i && claimed[j] < 0 {
				claimed[j] = i
			}
		}
	}
	t.parent = make([]int, n)
	for i := range t.nodes {
		nd := &t.nodes[i]
		t.parent[i] = claimed[i]
		if j, ok := t.index[nd.parentID]; ok && nd.hasParent && j != i {
			t.parent[i] = j
		}
	}
	t.breakCycles()
	t.children = make([][]int, n)
	placed := make([]bool, n)
	for i := range t.nodes {
		for _, c := range t.nodes[i].children {
			if j, ok := t.index[c]; ok && t.parent[j] == i && !placed[j] {
				placed[j] = true
				t.children[i] = append(t.children[i], j)
			}
		}
	}
	for j := range t.nodes {
		switch p := t.parent[j]; {
		case p < 0:
			t.roots = append(t.roots, j)
		case !placed[j]:
			t.children[p] = append(t.children[p], j)
		}
	}
}

// breakCycles makes the first node (in mapping order) of each parent cycle
// a root, as skein's pi reader does for a session's entries.
func (t *tree) breakCycles() { model.BreakCycles(t.parent, true, nil) }

// findPath marks the path from the root to the current node. Without a
// current node that exists, the conversation is taken to have been left
// where ChatGPT shows it: the latest child at each step from the root of
// the largest tree.
func (t *tree) findPath(current string) {
	t.current = -1
	t.onPath = make([]bool, len(t.nodes))
	if i, ok := t.index[current]; ok {
		t.current = i
	} else if len(t.roots) > 0 {
		size := t.sizes()
		best := t.roots[0]
		for _, r := range t.roots {
			if size[r] > size[best] {
				best = r
			}
		}
		i := best
		for len(t.children[i]) > 0 {
			i = t.children[i][len(t.children[i])-1]
		}
		t.current = i
	}
	for i := t.current; i >= 0; i = t.parent[i] {
		t.onPath[i] = true
	}
}

// sizes counts the nodes of each node's subtree.
func (t *tree) sizes() []int {
	order := make([]int, 0, len(t.nodes)) // parents before children
	order = append(order, t.roots...)
	for k := 0; k < len(order); k++ {
		order = append(order, t.children[order[k]]...)
	}
	size := make([]int, len(t.nodes))
	for k := len(order) - 1; k >= 0; k-- {
		i := order[k]
		size[i]++
		if p := t.parent[i]; p >= 0 {
			size[p] += size[i]
		}
	}
	return size
}

// pathLast returns list with the node on the current path, if any, moved
// to the end: its subtree is written last, so that the current node's
// entries end the file.
func (t *tree) pathLast(list []int) []int {
	for k, i := range list {
		if t.onPath[i] {
			out := make([]int, 0, len(list))
			out = append(out, list[:k]...)
			out = append(out, list[k+1:]...)
			return append(out, i)
		}
	}
	return list
}
