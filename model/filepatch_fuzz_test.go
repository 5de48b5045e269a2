package model

import "testing"

// FuzzParsePatch: any text read as a patch, or as Cline's SEARCH/REPLACE
// blocks, never panics; an edit it makes has its replacements, and
// applying it to any content never panics either.
func FuzzParsePatch(f *testing.F) {
	f.Add("*** Begin Patch\n*** Update File: a.go\n@@ x\n a\n-b\n+c\n*** Add File: n\n+hi\n*** Delete File: o\n*** Move to: p\n*** End Patch\n", "a\nb\n")
	f.Add("------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE", "x")
	f.Add("*** Update File: \n\n\n-", "")
	f.Fuzz(func(t *testing.T, p, content string) {
		for _, ch := range ParsePatch(p) {
			if ch.Kind == ChangeEdit && len(ch.Edits) == 0 {
				t.Fatalf("an edit with no replacement: %+v", ch)
			}
			st := FileState{Known: true, Content: content}.Apply(ch)
			if st.Known && ch.Kind == ChangeOpaque {
				t.Fatalf("an opaque change left the content known")
			}
		}
		if edits, ok := searchReplace(p); ok {
			if len(edits) == 0 {
				t.Fatal("no edits, ok")
			}
			_ = FileState{Known: true, Content: content}.Apply(FileChange{Kind: ChangeEdit, Edits: edits})
		}
	})
}
