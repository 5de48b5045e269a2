package export

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"skein/internal/synth"
	"skein/store"
	"skein/store/convert"
)

// Hostile files of every import format (synth.HostileImports: escape
// sequences, </script>, javascript: links, a closing fence, </details>,
// raw HTML, ../ ids, a huge line, wrong types), imported into Dhara's store
// and pi's, then exported: markdown with no control byte and no structure
// from the session, for the path and for every branch; html with no live
// markup (checkPage).
func TestExportImportedHostile(t *testing.T) {
	dir := t.TempDir()
	for name, data := range synth.HostileImports() {
		src := filepath.Join(dir, name)
		if err := os.WriteFile(src, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, to := range convert.Targets {
			rs, err := convert.ImportFile(src, convert.Options{To: to, Out: filepath.Join(dir, "out-"+to), Env: store.Env{Home: dir, WorkingDirPath: dir}})
			if err != nil {
				t.Fatalf("%s --to %s: %v", name, to, err)
			}
			for _, r := range rs {
				s, err := store.Open(r.Path)
				if err != nil {
					t.Fatalf("%s: %v", r.Path, err)
				}
				what := name + " --to " + to
				checkMarkdownShape(t, what, s, Options{}, true)
				checkMarkdownShape(t, what+" --all-branches", s, Options{AllBranches: true}, true)
				var page bytes.Buffer
				if err := HTML(&page, s, Options{}); err != nil {
					t.Fatal(err)
				}
				checkPage(t, what, page.Bytes())
			}
		}
	}
}
