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
