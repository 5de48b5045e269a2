package dhara

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"skein/internal/formattest"
	"skein/internal/synth"
	"skein/model"
)

// copyFixture is a copy of a hand-written session to write to.
func fixtureCopy(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := synth.CopyTree(filepath.Join(fixtures, "store", name), dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// clean fails on any error doctor reports.
func clean(t *testing.T, dir string) {
	t.Helper()
	diags, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		if !d.Warning {
			t.Errorf("doctor: %s: %s", d.Where(dir), d.Msg)
		}
	}
}

func contextIDs(s *Session) []string {
	var buf bytes.Buffer
	_ = s.WriteContextJSON(&buf, s.BuildContext(s.Leaf()))
	var out struct{ EntryIDs []string }
	_ = json.Unmarshal(buf.Bytes(), &out)
	return out.EntryIDs
}

func TestForkAddsABranch(t *testing.T) {
	dir := fixtureCopy(t, "branched")
	before := formattest.ReadFile(t, filepath.Join(dir, EntriesFile))
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Fork at the second entry of the active branch.
	active := s.ActiveBranch()
	at := active.EntryIDs[1]
	f, err := Fork(dir, at)
	if err != nil {
		t.Fatal(err)
	}
	if f.ParentBranch != active.ID || f.Entries != 2 {
		t.Errorf("fork %+v, want parent %s and 2 entries", f, active.ID)
	}
	after, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := after.ActiveBranch()
	if b == nil || b.ID != f.Branch || b.ParentBranchID != active.ID || !slices.Equal(b.EntryIDs, active.EntryIDs[:2]) {
		t.Fatalf("active branch %+v, want the fork ending at %s with parent %s", b, at, active.ID)
	}
	if after.Entries[after.Leaf()].ID != at {
		t.Errorf("leaf %s, want %s", after.Entries[after.Leaf()].ID, at)
	}
	if len(after.Tree.Branches) != len(s.Tree.Branches)+1 {
		t.Errorf("%d branches, want %d", len(after.Tree.Branches), len(s.Tree.Branches)+1)
	}
	if !bytes.Equal(formattest.ReadFile(t, filepath.Join(dir, EntriesFile)), before) {
		t.Error("a fork changed entries.jsonl")
	}
	clean(t, dir)
	// An entry appended now goes on the fork.
	id, err := Label(dir, at, "forked here")
	if err != nil {
		t.Fatal(err)
	}
	after, _ = Open(dir)
	if b := after.ActiveBranch(); b.ID != f.Branch || b.EntryIDs[len(b.EntryIDs)-1] != id {
		t.Errorf("the label went on %s, not the fork", b.ID)
	}
	clean(t, dir)
}

func TestLabelAndRename(t *testing.T) {
	dir := fixtureCopy(t, "linear")
	before := formattest.ReadFile(t, filepath.Join(dir, EntriesFile))
	// An unknown member of meta.json is kept.
	meta, _ := setMember(formattest.ReadFile(t, filepath.Join(dir, MetaFile)), "x-extension", []byte(`{"kept":true}`))
	if err := os.WriteFile(filepath.Join(dir, MetaFile), indent(meta), 0o600); err != nil {
		t.Fatal(err)
	}
	s, _ := Open(dir)
	target := s.Entries[2].ID
	if _, err := Label(dir, target, "look here"); err != nil {
		t.Fatal(err)
	}
	if _, err := Label(dir, "no-such-id", "x"); err == nil {
		t.Error("a label of a missing entry was written")
	}
	if err := Rename(dir, "New\nname "); err != nil {
		t.Fatal(err)
	}
	after, _ := Open(dir)
	i, _ := after.Index(target)
	if l, ok := after.Label(i); !ok || l != "look here" {
		t.Errorf("label %q %v", l, ok)
	}
	if after.Name() != "New name" {
		t.Errorf("title %q", after.Name())
	}
	if !strings.Contains(string(formattest.ReadFile(t, filepath.Join(dir, MetaFile))), `"kept": true`) {
		t.Error("rename lost an unknown member of meta.json")
	}
	if got := formattest.ReadFile(t, filepath.Join(dir, EntriesFile)); !bytes.HasPrefix(got, before) && !bytes.HasPrefix(got, append(before, '\n')) {
		t.Error("the label changed earlier bytes")
	}
	// The fixture's last line had no newline: one went first.
	if got := formattest.ReadFile(t, filepath.Join(dir, EntriesFile)); bytes.Contains(got, []byte(`}{"id"`)) {
		t.Error("the label was glued to the unterminated last line")
	}
	clean(t, dir)
	// Clearing it.
	if _, err := Label(dir, target, ""); err != nil {
		t.Fatal(err)
	}
	after, _ = Open(dir)
	if _, ok := after.Label(i); ok {
		t.Error("an empty label did not clear")
	}
}

func TestCompactKeepsToolResultsThenArchives(t *testing.T) {
	for _, name := range []string{"branched", "compacted", "interrupted"} {
		t.Run(name, func(t *testing.T) {
			dir := fixtureCopy(t, name)
			before := formattest.ReadFile(t, filepath.Join(dir, EntriesFile))
			s, _ := Open(dir)
			p := s.PlanCompaction(s.Leaf(), 10)
			if p == nil {
				t.Fatal(s.NothingToCompact(s.Leaf(), 10))
			}
			ids, preserved := s.Range(p)
			if len(ids) == 0 {
				t.Fatal("an empty range")
			}
			var results []string
			for _, id := range ids {
				if i, _ := s.Index(id); s.Entries[i].Type == TypeToolResult {
					results = append(results, id)
				}
			}
			if !slices.Equal(preserved, results) {
				t.Errorf("preserved %q, want the range's results %q", preserved, results)
			}
			leafID := s.Entries[s.Leaf()].ID
			saved := stillFor
			stillFor = time.Hour // no archive move yet
			id, err := Compact(dir, Compaction{Summary: "the summary", EntryIDs: ids, PreservedIDs: preserved, TokensBefore: p.TokensBefore},
				func(now *Session) (string, error) { return leafID, nil })
			stillFor = saved
			if err != nil {
				t.Fatal(err)
			}
			got := formattest.ReadFile(t, filepath.Join(dir, EntriesFile))
			if !bytes.HasPrefix(got, bytes.TrimSuffix(before, []byte("\n"))) {
				t.Fatal("the compaction changed earlier bytes")
			}
			after, _ := Open(dir)
			ctx := contextIDs(after)
			if len(ctx) == 0 || ctx[0] == "" {
				t.Fatalf("context %q", ctx)
			}
			for _, r := range preserved {
				if !slices.Contains(ctx, r) {
					t.Errorf("the preserved result %s is not in the context %q", r, ctx)
				}
			}
			for _, x := range ids {
				if !slices.Contains(preserved, x) && slices.Contains(ctx, x) {
					if i, _ := after.Index(x); after.Entries[i].Type != TypeSystem {
						t.Errorf("%s is in the range but still in the context", x)
					}
				}
			}
			if ci, _ := after.Index(id); after.BuildContext(after.Leaf()).Compaction != ci {
				t.Errorf("the context does not start from the new compaction")
			}
			clean(t, dir)
			// The archive move: the context and every entry stay, byte for byte.
			all := map[string]string{}
			for _, e := range after.Entries {
				all[e.ID] = string(e.Raw)
			}
			stillFor = 0
			defer func() { stillFor = saved }()
			n, err := Move(dir)
			if err != nil || n == 0 {
				t.Fatalf("moved %d: %v", n, err)
			}
			moved, _ := Open(dir)
			if !slices.Equal(contextIDs(moved), ctx) {
				t.Errorf("after the move the context is %q, want %q", contextIDs(moved), ctx)
			}
			if len(moved.Entries) != len(all) || len(moved.Duplicates) != 0 {
				t.Errorf("%d entries (%d duplicates), want %d", len(moved.Entries), len(moved.Duplicates), len(all))
			}
			for _, e := range moved.Entries {
				if all[e.ID] != string(e.Raw) {
					t.Errorf("%s changed in the move", e.ID)
				}
			}
			archived := 0
			for _, e := range moved.Entries {
				if e.Archived {
					archived++
					if i, _ := after.Index(e.ID); !after.Movable()[e.ID] && !after.Entries[i].Archived {
						t.Errorf("%s was archived but was not movable", e.ID)
					}
				}
			}
			if archived == 0 {
				t.Error("nothing in the archive")
			}
			clean(t, dir)
			if n, _ := Move(dir); n != 0 {
				t.Errorf("a second move moved %d", n)
			}
		})
	}
}

// A session's domain view shows a call with the message it belongs to.
func TestCallsWithTheirMessage(t *testing.T) {
	s, err := Open(filepath.Join(fixtures, "store", "linear"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := s.BuildHistory(s.Leaf())
	for _, m := range ctx.Messages {
		e := s.Entries[m.Entry]
		msg := s.Message(m)
		if e.Type == TypeToolCall && s.owned(m.Entry) {
			t.Errorf("the call %s is a message of its own", e.ID)
		}
		if calls := s.calls(m.Entry); len(calls) > 0 {
			if got := len(msg.ToolCalls()); got != len(calls) {
				t.Errorf("%s shows %d calls, want %d", e.ID, got, len(calls))
			}
		}
	}
	msgs := formattest.Messages(s, ctx)
	pairs := model.PairTools(msgs)
	for i := range s.Entries {
		if e := s.Entries[i]; e.Type == TypeToolCall {
			if _, ok := pairs[e.ID]; !ok {
				t.Errorf("the call %s is not paired with its result", e.ID)
			}
		}
	}
}
