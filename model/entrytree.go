package model

// EntryTree is a session's entries with their tree as each entry's parent.
// A format's Session embeds it, with its own entry type E, and so
// implements Source's Len and Entry (an entry's Head with its parent's id)
// besides Links' Parent, Children and Roots, which every format that keeps
// its tree as parents would otherwise write again.
type EntryTree[E any, P interface {
	*E
	// Head is the entry in the domain's terms, without its parent's id.
	Head() Entry
}] struct {
	Entries []E
	Links
}

// Len is the number of entries.
func (t *EntryTree[E, P]) Len() int { return len(t.Entries) }

// Entry is entry i in the domain's terms, its ParentID its parent's id.
func (t *EntryTree[E, P]) Entry(i int) Entry {
	e := P(&t.Entries[i]).Head()
	if p := t.Parent(i); p >= 0 {
		e.ParentID = P(&t.Entries[p]).Head().ID
	}
	return e
}
