package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The project column keeps the end of a long folder, which names the
// project (…/work/IDAHO), not its start (/tmp/skein-pi16-work/…), in the
// list and in its preview.
func TestProjectColumnKeepsTheEnd(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "--p--")
	os.MkdirAll(dir, 0o755)
	for i, project := range []string{"IDAHO", "OREGON"} {
		cwd := "/tmp/skein-pi16-work/some/deep/folders/" + project
		data := `{"type":"session","version":3,"id":"0000000` + string(rune('1'+i)) + `-aaaa-4aaa-8aaa-aaaaaaaaaaaa","timestamp":"2026-11-20T09:12:00.000Z","cwd":"` + cwd + `"}` + "\n" +
			`{"type":"message","id":"a1b2c3d` + string(rune('1'+i)) + `","parentId":null,"timestamp":"2026-11-20T09:12:01.000Z","message":{"role":"user","content":"hello ` + project + `","timestamp":1763629921000}}` + "\n"
		os.WriteFile(filepath.Join(dir, "s"+project+".jsonl"), []byte(data), 0o644)
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m := loaded(t, size[0], size[1], true, root)
		v := plain(m)
		for _, project := range []string{"IDAHO", "OREGON"} {
			row := ""
			for _, l := range strings.Split(v, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "hello "+project) {
					row, _, _ = strings.Cut(l, "│") // the list, not the preview beside it
				}
			}
			if !strings.Contains(row, "deep/folders/"+project+" ") || strings.Contains(row, "/tmp/skein-pi16") {
				t.Errorf("%dx%d: the row of %s does not end with its project's folder:\n%s", size[0], size[1], project, v)
			}
		}
	}
}
