package tui

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
)

// demoFS holds sessions pi 0.73.1 wrote (testdata/pigen/demo.mjs): two
// projects, branches with and without summaries, a compaction, a fork,
// labels, tool calls, thinking, an image and a long markdown answer.
//
//go:embed demo
var demoFS embed.FS

// CopyDemo copies the demo sessions to a new temporary folder, so that
// actions on them can write, and returns it.
func CopyDemo() (string, error) {
	dir, err := os.MkdirTemp("", "skein-demo-")
	if err != nil {
		return "", err
	}
	err = fs.WalkDir(demoFS, "demo", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("demo", p)
		dst := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := demoFS.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	return dir, err
}
