package model

// StartContext is where a format's BuildContext starts at leaf: the path
// from the root to leaf over parent (PathTo's), no messages yet, no
// compaction. ok is false, and the context empty, when leaf is not one of
// the n entries (-1 for an empty session). Every format's BuildContext
// began with these lines of its own.
func StartContext(leaf, n int, parent func(i int) int) (ctx Context, ok bool) {
	return startContext(leaf, n, func(leaf int) []int { return PathTo(leaf, n, parent) })
}

// PathContext is StartContext on the tree's own paths.
func (l *Links) PathContext(leaf int) (ctx Context, ok bool) {
	return startContext(leaf, len(l.parent), l.Path)
}

func startContext(leaf, n int, path func(leaf int) []int) (ctx Context, ok bool) {
	ctx = Context{Compaction: -1}
	if leaf < 0 || leaf >= n {
		return ctx, false
	}
	ctx.Path = path(leaf)
	return ctx, true
}

// OnePerEntry adds entries to the context as a log that is read back
// gives them: a message entry one message, a compaction, when summaries,
// its summary as one message, any other entry none (it stands in
// ctx.Entries with no messages). kind is entry i's kind.
func (ctx *Context) OnePerEntry(entries []int, kind func(i int) EntryKind, summaries bool) {
	for _, i := range entries {
		pe := Projected{Entry: i, First: len(ctx.Messages)}
		switch kind(i) {
		case EntryMessage:
			ctx.Messages = append(ctx.Messages, ContextMessage{Entry: i})
			pe.N = 1
		case EntryCompaction:
			if summaries {
				ctx.Messages = append(ctx.Messages, ContextMessage{Entry: i, Kind: KindCompactionSummary})
				pe.N = 1
			}
		}
		ctx.Entries = append(ctx.Entries, pe)
	}
}
