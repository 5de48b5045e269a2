package formattest

// Leaves is the Leaves of a fuzz target's Readers that builds a context
// at the session's leaf and at the entry half way, maybe on another
// branch; none below 0 (an empty session's half way, 0, is asked too).
func Leaves(s interface {
	Leaf() int
	Len() int
}) func() []int {
	return func() []int {
		var leaves []int
		for _, leaf := range []int{s.Leaf(), s.Len() / 2} {
			if leaf >= 0 {
				leaves = append(leaves, leaf)
			}
		}
		return leaves
	}
}
