package store_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"skein/internal/stamp"
	"skein/model"
	"skein/store"
)

// boxes is a format that keeps many sessions in one file (a Container, as
// OpenCode's database is): "box.db" holds a session per line, and a
// "box.db-wal" beside it is its writer's, whose changes are every
// session's.
type boxes struct{ opened *[]string }

func (boxes) Format() store.Format        { return "boxes" }
func (boxes) Wording() store.Wording      { return store.Wording{Agent: "Boxes"} }
func (boxes) Detect([]byte, bool) bool    { return false }
func (boxes) ContainerName(b string) bool { return b == "box.db" }
func (boxes) Claims(path string) bool {
	db, _, ok := strings.Cut(path, "#")
	return ok && filepath.Base(db) == "box.db"
}

func (b boxes) Sessions(path string) ([]string, error) {
	*b.opened = append(*b.opened, path)
	data, err := os.ReadFile(path)
	var out []string
	for _, id := range strings.Fields(string(data)) {
		out = append(out, path+"#"+id)
	}
	return out, err
}

func (boxes) ContainerFiles(path string) []string {
	db, _, _ := strings.Cut(path, "#")
	return []string{db, db + "-wal"}
}

func (boxes) Open(string) (*model.Session, error) { return nil, store.ErrUnsupported }
func (boxes) SessionID(path string) (string, error) {
	_, id, _ := strings.Cut(path, "#")
	return id, nil
}

func (b boxes) ListInfo(path string, buf []byte) ([]byte, store.Info, error) {
	id, _ := b.SessionID(path)
	return buf, store.Info{Format: "boxes", ID: id}, nil
}

// A file that holds many sessions is listed as one path per session,
// found from a root and named alone; a session's path is its format's
// without a stat; a change to the writer's file beside it is a change of
// every session it holds.
func TestContainerSessions(t *testing.T) {
	var opened []string
	b := boxes{&opened}
	defer store.Register(b)()
	now := stamp.NowNs
	stamp.NowNs = func() int64 { return now() + 10*stamp.Slack } // every stamp settled
	t.Cleanup(func() { stamp.NowNs = now })

	root := t.TempDir()
	dir := filepath.Join(root, "share", "boxes")
	os.MkdirAll(dir, 0o755)
	db := filepath.Join(dir, "box.db")
	os.WriteFile(db, []byte("ses_a ses_b\n"), 0o644)
	os.WriteFile(db+"-wal", nil, 0o644)
	os.WriteFile(filepath.Join(dir, "other.db"), []byte("ses_c"), 0o644)

	want := []string{db + "#ses_a", db + "#ses_b"}
	for _, roots := range [][]string{{root}, {db}} {
		got, err := store.Discover(roots)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Discover(%v) = %v, %v; want %v", roots, got, err, want)
		}
	}
	if got, err := store.Discover([]string{db + "#ses_b"}); err != nil || !slices.Equal(got, want[1:]) {
		t.Errorf("a session named by its path: %v, %v", got, err)
	}
	for ref, want := range map[string]string{db + "#ses_a": db + "#ses_a", "ses_b": db + "#ses_b"} {
		if got, err := store.Resolve(ref, []string{root}); err != nil || got != want {
			t.Errorf("Resolve(%s) = %s, %v", ref, got, err)
		}
	}
	if f, err := store.Find(db + "#ses_a"); err != nil || f.Format() != "boxes" {
		t.Errorf("Find: %v, %v", f, err)
	}
	if files := store.StampFiles(b, want[0]); !slices.Equal(files, []string{db, db + "-wal"}) {
		t.Errorf("stamp files %v", files)
	}

	_, _, state, err := store.ListBy(b, want[0], nil)
	if err != nil || state == nil {
		t.Fatalf("first list: %v, state %v", err, state)
	}
	before := store.FullReads.Load()
	if _, _, _, err := store.ListBy(b, want[0], state); err != nil || store.FullReads.Load() != before {
		t.Errorf("unchanged: read again (%v)", err)
	}
	os.WriteFile(db+"-wal", []byte("a page"), 0o644)
	later := time.Now().Add(time.Second)
	os.Chtimes(db+"-wal", later, later)
	if _, _, _, err := store.ListBy(b, want[0], state); err != nil || store.FullReads.Load() != before+1 {
		t.Errorf("a change to the -wal was not seen as a change (%v)", err)
	}
}
