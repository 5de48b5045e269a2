package model

import "slices"

// PathTo is the entries from the root to leaf, root first, for a format
// that keeps its parents its own way (parent is entry i's parent, -1 for
// a root). The walk stops at an index that is no entry of the n, and
// after n+1 steps, so that a cycle ends it (Gemini CLI's and Cursor's
// files are read without breaking them). Links.Path is the same walk on
// a forest.
func PathTo(leaf, n int, parent func(i int) int) []int {
	var out []int
	for i := leaf; i >= 0 && i < n && len(out) <= n; i = parent(i) {
		out = append(out, i)
	}
	slices.Reverse(out)
	return out
}
