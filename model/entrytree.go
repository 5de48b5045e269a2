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

// PathContext is where a format's BuildContext starts at leaf: the path
// from the root to leaf, no messages yet, no compaction. ok is false, and
// the context empty, when leaf is no entry (-1 for an empty session).
func (t *EntryTree[E, P]) PathContext(leaf int) (ctx Context, ok bool) {
	ctx = Context{Compaction: -1}
	if leaf < 0 || leaf >= len(t.Entries) {
		return ctx, false
	}
	ctx.Path = t.Path(leaf)
	return ctx, true
}
