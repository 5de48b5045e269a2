package workflow

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skein/internal/synth"
	"skein/model"
	"skein/store"
)

// session copies a fixture into a folder of its own and reads it.
func session(t *testing.T) (string, *model.Session) {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join("..", "testdata", "pi", "store", "--home-dev-webapp--", "2026-03-02*.jsonl"))
	if len(m) != 1 {
		t.Fatalf("fixture: %v", m)
	}
	data, err := os.ReadFile(m[0])
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), filepath.Base(m[0]))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, s
}

func refusal(err error) string {
	var r *store.RefusedError
	if errors.As(err, &r) {
		return r.Reason
	}
	return ""
}

func appendLine(t *testing.T, path, line string) {
	t.Helper()
	if err := synth.AppendLine(path, line); err != nil {
		t.Fatal(err)
	}
}

func TestForkBefore(t *testing.T) {
	path, s := session(t)
	var user, other int = -1, -1
	for i := range s.Len() {
		e := s.Entry(i)
		if e.Kind == model.EntryMessage && e.Role == model.RoleUser && s.Parent(i) >= 0 && user < 0 {
			user = i
		}
		if e.Kind == model.EntryMessage && e.Role == model.RoleAssistant && other < 0 {
			other = i
		}
	}
	f, err := Fork(path, s, user, true)
	if err != nil {
		t.Fatal(err)
	}
	if f.Message == "" || f.Entries != len(s.Path(s.Parent(user))) {
		t.Errorf("fork before a user message: %+v", f)
	}
	if _, err := Fork(path, s, other, true); !strings.Contains(refusal(err), "needs a user message") {
		t.Errorf("before an assistant message: %v", err)
	}
	if f, err := Fork(path, s, other, false); err != nil || f.Message != "" {
		t.Errorf("fork at an assistant message: %+v %v", f, err)
	}
}

// TestCompactGuards: the compaction of the leaf is refused once the leaf
// moved, unless pinned; one planned at an entry that was not the leaf goes
// after it whatever was appended; one whose entry is gone is refused.
func TestCompactGuards(t *testing.T) {
	path, s := session(t)
	plan := func(at int) *model.Plan {
		p := s.PlanCompaction(at, 10)
		if p == nil {
			t.Fatalf("nothing to compact at %d", at)
		}
		return p
	}
	leaf := s.Entry(s.Leaf()).ID
	appendLine(t, path, `{"type":"message","id":"0badc0de","parentId":"`+leaf+`","timestamp":"2026-03-02T09:00:00.000Z","message":{"role":"user","content":"more","timestamp":1772442000000}}`)
	before, _ := os.ReadFile(path)
	if _, err := Compact(path, s, plan(s.Leaf()), "## Goal", nil, false); !strings.Contains(refusal(err), "changed while the summary was made") {
		t.Fatalf("a stale leaf: %v", err)
	}
	if now, _ := os.ReadFile(path); string(now) != string(before) {
		t.Fatal("a refused compaction wrote")
	}
	id, err := Compact(path, s, plan(s.Leaf()), "## Goal", nil, true)
	if err != nil {
		t.Fatalf("pinned: %v", err)
	}
	now, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if e := now.Entry(now.Leaf()); e.ID != id || e.ParentID != leaf || e.Kind != model.EntryCompaction {
		t.Errorf("pinned compaction: %s %s after %s", e.Type, e.ID, e.ParentID)
	}
	// A plan at an entry that was not the leaf.
	mid := s.Parent(s.Leaf())
	if _, err := Compact(path, s, plan(mid), "## Goal", nil, false); err != nil {
		t.Errorf("at an earlier entry: %v", err)
	}
	// The entry planned at is not in the file.
	other, s2 := session(t)
	if err := os.WriteFile(other, []byte(strings.SplitN(string(before), "\n", 2)[0]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Compact(other, s2, s2.PlanCompaction(s2.Leaf(), 10), "## Goal", nil, true); !strings.Contains(refusal(err), "is gone from the file") {
		t.Errorf("a missing entry: %v", err)
	}
}

// noActions is pi's backend for the paths it claims, but with none of the
// actions' interfaces (embedding the Backend interface hides them).
type noActions struct {
	store.Backend
	dir string
}

func (noActions) Format() store.Format      { return "no-actions" }
func (n noActions) Claims(path string) bool { return strings.HasPrefix(path, n.dir) }
func (noActions) Wording() store.Wording    { return store.Wording{Agent: "no-actions"} }

// Every action asks the session's format first: one that lacks it answers
// ErrUnsupported and nothing is written.
func TestActionsTheFormatLacks(t *testing.T) {
	path, s := session(t)
	b, _ := store.Find(path)
	t.Cleanup(store.Register(noActions{b, filepath.Dir(path)}))
	before, _ := os.ReadFile(path)
	p := s.PlanCompaction(s.Leaf(), 10)
	errs := map[string]error{}
	_, errs["fork"] = Fork(path, s, s.Leaf(), false)
	_, errs["compaction"] = Compact(path, s, p, "x", nil, false)
	_, errs["labels"] = Label(path, s.Entry(s.Leaf()).ID, "x")
	_, errs["renaming"] = Rename(path, "x")
	_, errs["deleting"] = Delete(path, store.Env{})
	for what, err := range errs {
		if !errors.Is(err, store.ErrUnsupported) || err.Error() != "no-actions sessions do not support "+what+" in skein" {
			t.Errorf("%s: %v", what, err)
		}
	}
	if after, err := os.ReadFile(path); err != nil || string(after) != string(before) {
		t.Error("the session changed")
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("%d files beside the session", len(entries))
	}
}
