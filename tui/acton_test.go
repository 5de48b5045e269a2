package tui

import (
	"strings"
	"testing"

	"skein/internal/synth"
	"skein/model"
	"skein/store"
)

// Issue 22, point 4: a label and a name written at the end of a branch,
// then G in the tree (its last row is the last message: the tree hides
// the label and the name) and a compaction: it is appended after the
// leaf, on the branch the agent resumes, not on a new branch off the last
// message; its dialog names the entry and gives one figure for the
// context.
func TestCompactionAfterALabelStaysOnTheBranch(t *testing.T) {
	t.Setenv("SKEIN_SUMMARIZER", "extractive")
	m := loaded(t, 120, 40, true, storeCopy(t))
	openFixture(t, m, "Health endpoint")
	path := m.session.info.Path
	run(m, press(m, "L"))
	accept(t, m, "m", "i", "n", "e", "enter")
	run(m, press(m, "R"))
	inputOf(t, m).SetValue("")
	accept(t, m, "N", "e", "w", "enter")
	before, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	leafID := before.Entry(before.Leaf()).ID
	branches := leaves(before)
	run(m, press(m, "G"))
	shown := m.session.s.Entry(m.session.target())
	if shown.Kind != model.EntryMessage {
		t.Fatalf("G selects a %s, want the last message", shown.Type)
	}
	run(m, press(m, "c"))
	if dlg(m) == nil {
		t.Fatal("no compaction dialog")
	}
	if !strings.Contains(dlg(m).body, "At: ") || !strings.Contains(dlg(m).body, "end of the branch") {
		t.Errorf("the dialog does not name the entry and where it goes: %s", dlg(m).body)
	}
	for i := 0; i < 12 && !strings.Contains(dlg(m).title, "Compact"); i++ {
		accept(t, m, "-")
	}
	if !strings.Contains(dlg(m).title, "Compact") {
		t.Fatalf("plan: %s: %s", dlg(m).title, dlg(m).body)
	}
	if dlg(m).title != "Compact the branch?" {
		t.Errorf("the plan's title: %s", dlg(m).title)
	}
	if strings.Contains(dlg(m).body, "Tokens before") || !strings.Contains(dlg(m).body, "Context: ") {
		t.Errorf("the context's figure: %s", dlg(m).body)
	}
	accept(t, m, "enter")
	accept(t, m, "ctrl+s")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	last := s.Entry(s.Leaf())
	if last.Kind != model.EntryCompaction {
		t.Fatalf("the leaf is a %s", last.Type)
	}
	if p := s.Parent(s.Leaf()); p < 0 || s.Entry(p).ID != leafID {
		t.Errorf("the compaction follows %s, want the leaf %s", s.Entry(p).ID, leafID)
	}
	if n := leaves(s); n != branches {
		t.Errorf("%d branches after the compaction, %d before", n, branches)
	}
	if s.Name() != "New" {
		t.Errorf("the name on the active branch is %q", s.Name())
	}
}

// leaves counts the session's branches: its entries with no child.
func leaves(s *model.Session) int {
	n := 0
	for i := 0; i < s.Len(); i++ {
		if len(s.Children(i)) == 0 {
			n++
		}
	}
	return n
}

// A compaction asked for at an earlier entry says, before anything is
// written, that it starts a new branch.
func TestCompactionAtAnEarlierEntrySaysItBranches(t *testing.T) {
	t.Setenv("SKEIN_SUMMARIZER", "extractive")
	m := loaded(t, 120, 40, true, fixtureStore)
	openFixture(t, m, "Health endpoint")
	run(m, press(m, "g", "j"))
	run(m, press(m, "c"))
	if dlg(m) == nil || !strings.Contains(dlg(m).body, "starts a new branch") {
		t.Fatalf("the dialog does not say it branches: %+v", dlg(m))
	}
}

// In a Dhara session, a fork at an earlier entry makes a branch that ends
// there, and a label written on it: a compaction asked at it is at the end
// of that branch, though the entry has a child on the old one.
func TestCompactionAtTheEndOfADharaFork(t *testing.T) {
	t.Setenv("SKEIN_SUMMARIZER", "extractive")
	dst := t.TempDir()
	if err := synth.CopyTree(dharaStore, dst); err != nil {
		t.Fatal(err)
	}
	m := loaded(t, 120, 40, true, dst)
	openFixture(t, m, "Paginate GET /orders")
	i, ok := m.session.s.Index("msg_9d1f3b5c7e8a0f2b")
	if !ok {
		t.Fatal("no entry msg_9d1f3b5c7e8a0f2b")
	}
	m.session.tree.cursor = m.session.tree.view.NearestVisible(i)
	run(m, m.session.selectionChanged())
	run(m, press(m, "f"))
	accept(t, m, "y")
	if dlg(m) != nil {
		press(m, "esc")
	}
	run(m, press(m, "L"))
	accept(t, m, "d", "o", "n", "e", "enter")
	run(m, press(m, "c"))
	if dlg(m) == nil || !strings.Contains(dlg(m).body, "The end of the branch the agent resumes") {
		t.Fatalf("the dialog: %+v", dlg(m))
	}
}
