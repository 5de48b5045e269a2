package formattest

import (
	"reflect"
	"testing"
)

// Domain is a format's session as model gives it (a *model.Session): what
// Exercise asks, the tree's links, and the readers model gives every
// format, by default or through the format's own. Its type arguments are
// model's (the context C, a context message CM, a message M, the tree
// text's parts P, a detail Dt, the stats St, a tree filter F and the tree
// view V), left open so that this package needs no model; Go infers them
// from a *model.Session.
type Domain[C, CM, M, P, Dt, St, F any, V TreeView] interface {
	Parsed[C]
	Forest
	Path(i int) []int
	TreeText(i int, home string) P
	EntryMessage(i int) M
	Detail(i int) Dt
	MessageTokens(m CM) int
	MessageHead(m CM) M
	Summarized(leaf int, ctx C) int
	BuildHistory(leaf int) C
	Stats() St
	NewTreeView(leaf int, filter F) V
}

// ExerciseDomain is Exercise on d with the readers model gives every
// format called as well, so that a format's fuzz target names only what
// is its own in r (the entries' ids, the readers its session adds): each
// entry's tree text, message and detail; each context's messages' tokens
// and heads, what its compaction summarized and the history at its leaf;
// the stats, and the tree screen's lines through filter (model.FilterAll).
// r.Path, when nil, is d.Path: no path may be longer than the session.
func ExerciseDomain[C, CM, M, P, Dt, St, F any, V TreeView](t testing.TB, d Domain[C, CM, M, P, Dt, St, F, V], filter F, r Readers[C]) {
	t.Helper()
	own := r
	if r.Path == nil {
		r.Path = d.Path
	}
	r.Entry = func(i int) {
		_ = d.TreeText(i, "/home")
		_ = d.EntryMessage(i)
		_ = d.Detail(i)
		if own.Entry != nil {
			own.Entry(i)
		}
	}
	r.Context = func(leaf int, ctx C) {
		// A context's messages are its field Messages ([]model.ContextMessage),
		// read by name since this package knows no model.
		msgs := reflect.ValueOf(ctx).FieldByName("Messages")
		for k := range msgs.Len() {
			m := msgs.Index(k).Interface().(CM)
			_ = d.MessageTokens(m)
			_ = d.MessageHead(m)
		}
		_ = d.Summarized(leaf, ctx)
		_ = d.BuildHistory(leaf)
		if own.Context != nil {
			own.Context(leaf, ctx)
		}
	}
	r.Session = func() {
		_ = d.Stats()
		_ = TreeLines(d, d.Leaf(), filter, "/home")
		if own.Session != nil {
			own.Session()
		}
	}
	Exercise(t, d, r)
}
