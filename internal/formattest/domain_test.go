package formattest

import (
	"io"
	"maps"
	"strings"
	"testing"
)

// dctx is a context as model's is to ExerciseDomain: a Messages field.
type dctx struct{ Messages []int }

// domain is fake with the readers model gives every format, each counting
// its calls by name.
type domain struct {
	*fake
	calls map[string]int
}

func newDomain(s *fake) *domain { return &domain{s, map[string]int{}} }

func (d *domain) count(name string) { d.calls[name]++ }

func (d *domain) BuildContext(leaf int) dctx { return dctx{Messages: []int{leaf, leaf}} }
func (d *domain) WriteContextJSON(w io.Writer, _ dctx) error {
	_, err := io.WriteString(w, d.json)
	return err
}
func (d *domain) Path(i int) []int {
	d.count("Path")
	return make([]int, i+1)
}
func (d *domain) TreeText(int, string) string      { d.count("TreeText"); return "" }
func (d *domain) EntryMessage(int) string          { d.count("EntryMessage"); return "" }
func (d *domain) Detail(int) int                   { d.count("Detail"); return 0 }
func (d *domain) MessageTokens(int) int            { d.count("MessageTokens"); return 0 }
func (d *domain) MessageHead(int) string           { d.count("MessageHead"); return "" }
func (d *domain) Summarized(int, dctx) int         { d.count("Summarized"); return 0 }
func (d *domain) BuildHistory(leaf int) dctx       { d.count("BuildHistory"); return d.BuildContext(leaf) }
func (d *domain) Stats() int                       { d.count("Stats"); return 0 }
func (d *domain) NewTreeView(leaf int, f int) tree { d.count("NewTreeView"); return tree{leaf} }

func TestExerciseDomain(t *testing.T) {
	d := newDomain(healthy())
	own := 0
	f := run(t, func(tb testing.TB) {
		ExerciseDomain(tb, d, 4, Readers[dctx]{
			ID:      func(i int) string { return "e" + string(rune('0'+i)) },
			Leaves:  func() []int { return []int{0, 2} },
			Entry:   func(int) { own++ },
			Context: func(int, dctx) { own += 10 },
			Session: func() { own += 100 },
		})
	})
	if len(f) != 0 {
		t.Fatalf("a healthy session: %q", f)
	}
	// Three entries; two contexts of two messages each; one session.
	want := map[string]int{"Path": 3, "TreeText": 3, "EntryMessage": 3, "Detail": 3,
		"MessageTokens": 4, "MessageHead": 4, "Summarized": 2, "BuildHistory": 2, "Stats": 1, "NewTreeView": 1}
	if !maps.Equal(d.calls, want) {
		t.Errorf("model's readers called %v, want %v", d.calls, want)
	}
	if own != 123 {
		t.Errorf("the format's readers were called %d times (by weight), want 123", own)
	}

	// A path of the format's own is taken instead of d's: a cycle it
	// follows is seen.
	if f := run(t, func(tb testing.TB) {
		ExerciseDomain(tb, newDomain(&fake{n: 1, leaf: 0, json: "{}", index: func(string) (int, bool) { return 0, true }, parent: func(int) int { return -1 }}), 4,
			Readers[dctx]{ID: func(int) string { return "x" }, Path: func(int) []int { return make([]int, 2) }})
	}); len(f) != 1 || !strings.Contains(f[0], "path longer") {
		t.Errorf("a path longer than the session: %q", f)
	}

	// Forest asks that every entry be reached once from the roots.
	cyc := healthy()
	cyc.parent = func(i int) int { return []int{-1, 2, 1}[i] }
	for _, forest := range []bool{false, true} {
		f := run(t, func(tb testing.TB) {
			ExerciseDomain(tb, newDomain(cyc), 4, Readers[dctx]{ID: func(i int) string { return "e" + string(rune('0'+i)) },
				Path: func(int) []int { return nil }, Forest: forest})
		})
		if got := len(f) == 1 && strings.Contains(f[0], "1 of 3 entries reached"); got != forest {
			t.Errorf("a cycle with Forest %v: %q", forest, f)
		}
	}
}
