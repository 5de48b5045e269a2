package formattest

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"skein/internal/jscan"
)

// AddFiles adds every file the glob patterns match as a seed of f, but
// those of max bytes or more when max is above zero: the engine minimizes
// each input that finds new code, and on a large seed it does little else.
func AddFiles(f *testing.F, max int, patterns ...string) {
	f.Helper()
	for _, pattern := range patterns {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil && (max <= 0 || len(data) < max) {
				f.Add(data)
			}
		}
	}
}

// FuzzParse is the fuzz target of a format's parser: sniff looks at every
// input first (it may say anything of it, but must not panic), then parse
// reads it, and check is called on each session parse does not refuse.
func FuzzParse[S any](f *testing.F, sniff func(head []byte) bool, parse func(data []byte) (S, error), check func(t *testing.T, s S)) {
	f.Fuzz(func(t *testing.T, data []byte) {
		sniff(data)
		s, err := parse(data)
		if err != nil {
			return
		}
		check(t, s)
	})
}

// TreeView is the tree screen's view of a session (model.TreeView).
type TreeView interface {
	NearestVisible(n int) int
	Lines(selected int, home string) []string
}

// TreeLines are the lines of the tree screen that d (a model.Session) shows
// at leaf through filter, the row nearest the leaf selected: the drawing
// every format's fuzz target asks of its sessions.
func TreeLines[F any, V TreeView](d interface{ NewTreeView(leaf int, filter F) V }, leaf int, filter F, home string) []string {
	v := d.NewTreeView(leaf, filter)
	return v.Lines(v.NearestVisible(leaf), home)
}

// Parsed is what the fuzz checks ask of a format's parsed session. C is the
// format's context (model.Context), left open so that this package needs
// no session type.
type Parsed[C any] interface {
	Len() int
	Leaf() int
	Index(id string) (int, bool)
	BuildContext(leaf int) C
	WriteContextJSON(w io.Writer, ctx C) error
	WriteTreeJSON(w io.Writer) error
}

// Readers are what Exercise needs of a format beyond Parsed: how to read an
// entry's id, and the format's other readers, which it calls for a panic
// or a loop whatever bytes were parsed. A nil func is not called.
type Readers[C any] struct {
	// ID is entry i's id as the format keeps it.
	ID func(i int) string
	// NoLeaf allows a session with entries to have no leaf (-1).
	NoLeaf bool
	// Forest: the tree's links must make a forest (CheckForest), when the
	// session has them (Forest).
	Forest bool
	// Path is the path from a root to entry i, checked to be no longer
	// than the session (a cycle followed would be).
	Path func(i int) []int
	// Entry calls the readers of entry i.
	Entry func(i int)
	// Leaves are the leaves to build a context at; nil: the session's.
	Leaves func() []int
	// Context calls the readers of the context built at leaf.
	Context func(leaf int, ctx C)
	// Session calls the readers of the whole session.
	Session func()
}

// Exercise calls every reader of a parsed session and checks what must
// hold whatever the bytes: a leaf among the entries, every entry found by
// its id, paths no longer than the session, and valid JSON out (each
// context built, the tree).
func Exercise[C any](t testing.TB, s Parsed[C], r Readers[C]) {
	t.Helper()
	if f, ok := s.(Forest); ok && r.Forest {
		CheckForest(t, f)
	}
	n := s.Len()
	if leaf := s.Leaf(); leaf < -1 || leaf >= n || !r.NoLeaf && n > 0 && leaf < 0 {
		t.Fatalf("leaf %d of %d entries", leaf, n)
	}
	for i := range n {
		if r.Path != nil && len(r.Path(i)) > n {
			t.Fatal("path longer than the session: a cycle was followed")
		}
		id := r.ID(i)
		if j, ok := s.Index(id); !ok || j != i {
			t.Fatalf("entry %d %q: index %d %v", i, id, j, ok)
		}
		if r.Entry != nil {
			r.Entry(i)
		}
	}
	leaves := []int{s.Leaf()}
	if r.Leaves != nil {
		leaves = r.Leaves()
	}
	for _, leaf := range leaves {
		ctx := s.BuildContext(leaf)
		if r.Context != nil {
			r.Context(leaf, ctx)
		}
		ValidJSON(t, "context", func(w io.Writer) error { return s.WriteContextJSON(w, ctx) })
	}
	if r.Session != nil {
		r.Session()
	}
	ValidJSON(t, "tree", s.WriteTreeJSON)
	_ = s.WriteTreeJSON(io.Discard)
}

// ValidJSON fails the test when write fails or writes what is not JSON.
func ValidJSON(t testing.TB, what string, write func(w io.Writer) error) {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf); err != nil || !jscan.Valid(buf.Bytes()) {
		t.Fatalf("%s JSON invalid: %v %.300s", what, err, buf.Bytes())
	}
}

// Forest is a session's tree links.
type Forest interface {
	Len() int
	Roots() []int
	Children(i int) []int
	Parent(i int) int
}

// CheckForest fails the test unless every entry is reached once from the
// roots, each child naming its parent: a cycle leaves entries unreached.
func CheckForest(t testing.TB, s Forest) {
	t.Helper()
	n := s.Len()
	seen := make([]bool, n)
	stack := append([]int(nil), s.Roots()...)
	reached := 0
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[i] {
			t.Fatalf("entry %d reached twice", i)
		}
		seen[i] = true
		reached++
		for _, c := range s.Children(i) {
			if s.Parent(c) != i {
				t.Fatalf("child %d of %d has parent %d", c, i, s.Parent(c))
			}
			stack = append(stack, c)
		}
	}
	if reached != n {
		t.Fatalf("%d of %d entries reached from the roots: a cycle", reached, n)
	}
}
