package model

import "testing"

type treeEntry struct{ id string }

func (e *treeEntry) Head() Entry { return Entry{Kind: EntryMessage, ID: e.id} }

// TestEntryTree: an entry is its Head with its parent's id, a root's
// ParentID is "", and Len counts the entries.
func TestEntryTree(t *testing.T) {
	var tr EntryTree[treeEntry, *treeEntry]
	tr.Entries = []treeEntry{{"a"}, {"b"}, {"c"}}
	tr.SetParents([]int32{-1, 0, 0})
	if tr.Len() != 3 {
		t.Fatalf("len %d", tr.Len())
	}
	if e := tr.Entry(0); e.ID != "a" || e.ParentID != "" {
		t.Errorf("root: %+v", e)
	}
	if e := tr.Entry(2); e.ID != "c" || e.ParentID != "a" || e.Kind != EntryMessage {
		t.Errorf("child: %+v", e)
	}
}

// TestPathContext: a context starts from the path to its leaf, and is
// empty with ok false for -1 and past the entries.
func TestPathContext(t *testing.T) {
	var tr EntryTree[treeEntry, *treeEntry]
	tr.Entries = []treeEntry{{"a"}, {"b"}, {"c"}}
	tr.SetParents([]int32{-1, 0, 1})
	if ctx, ok := tr.PathContext(2); !ok || len(ctx.Path) != 3 || ctx.Path[0] != 0 || ctx.Compaction != -1 {
		t.Errorf("leaf 2: %+v %v", ctx, ok)
	}
	for _, leaf := range []int{-1, 3} {
		if ctx, ok := tr.PathContext(leaf); ok || ctx.Path != nil || ctx.Compaction != -1 {
			t.Errorf("leaf %d: %+v %v", leaf, ctx, ok)
		}
	}
}

// TestNewModelRef: each name is a JSON string, absent when "", and no
// model at all when both are.
func TestNewModelRef(t *testing.T) {
	if NewModelRef("", "") != nil {
		t.Error("a model from no names")
	}
	if r := NewModelRef("", "m\"1"); r.Provider != nil || string(r.ModelID) != `"m\"1"` {
		t.Errorf("model only: %q %q", r.Provider, r.ModelID)
	}
	if r := NewModelRef("p", ""); string(r.Provider) != `"p"` || r.ModelID != nil {
		t.Errorf("provider only: %q %q", r.Provider, r.ModelID)
	}
}

// TestTips: the entries with no children, one a branch.
func TestTips(t *testing.T) {
	var l Links
	l.SetParents([]int32{-1, 0, 1, 0, -1})
	if n := l.Tips(); n != 3 {
		t.Errorf("tips %d, want 3 (entries 2, 3 and 4)", n)
	}
	var none Links
	if n := none.Tips(); n != 0 {
		t.Errorf("tips of nothing: %d", n)
	}
}
