package dhara

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: any bytes in the three files parse, link and build a context
// without a panic or a loop, and the context's entries are on the path.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"seed", "linear", "branched", "compacted", "archived"} {
		dir := filepath.Join(fixtures, "store", name)
		entries, _ := os.ReadFile(filepath.Join(dir, EntriesFile))
		tree, _ := os.ReadFile(filepath.Join(dir, TreeFile))
		meta, _ := os.ReadFile(filepath.Join(dir, MetaFile))
		f.Add(entries, tree, meta)
	}
	f.Add([]byte(`{"id":"a","type":"tool_call","parentMessageId":"a"}`+"\n"), []byte(`{"branches":[{"id":"b","entryIds":["a","a"]},{"id":"c","parentBranchId":"b","entryIds":["a"]}]}`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, entries, tree, meta []byte) {
		s := Parse(Files{Meta: meta, Tree: tree, Entries: entries, Archive: entries})
		for i := range s.Entries {
			_ = s.TreeText(i, "/home")
			_ = s.Message(s.ctxMsg(i))
		}
		for leaf := range min(len(s.Entries), 8) {
			ctx := s.BuildContext(leaf)
			on := map[int]bool{}
			for _, i := range ctx.Path {
				on[i] = true
			}
			for _, pe := range ctx.Entries {
				if !on[pe.Entry] && pe.Entry != ctx.Compaction {
					t.Fatalf("entry %d of the context is not on the path to %d", pe.Entry, leaf)
				}
			}
			_ = s.WriteContextJSON(io.Discard, ctx)
			_ = s.BuildHistory(leaf)
			if p := s.PlanCompaction(leaf, 5); p != nil {
				s.Range(p)
			}
		}
		_ = s.WriteTreeJSON(io.Discard)
		_ = s.Stats()
		_ = s.Movable()
	})
}
