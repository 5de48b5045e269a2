package convert

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"skein/model"
	"skein/store"
)

// messageTexts are the messages of every branch of s, one line each
// (role, text, thinking, calls, result, error), sorted: what an import
// must keep, whatever it does with the ids and the order of branches. A
// role in skip is left out: what the target keeps as data (Dhara a
// command the user ran; pi a system prompt, as it keeps its own).
func messageTexts(s *model.Session, skip ...string) []string {
	var out []string
	for _, leaf := range leaves(s) {
		for _, m := range pathMessages(s, leaf) {
			if slices.Contains(skip, m.Role) {
				continue
			}
			line := m.Role + ": " + m.Text("\n") + m.Command + m.Output
			for _, b := range m.Blocks {
				switch b.Type {
				case model.BlockThinking:
					line += " [thinking " + b.Text + "]"
				case model.BlockToolCall:
					line += " [call " + b.Call.Name + " " + string(b.Call.Input) + "]"
				}
			}
			if m.Error != "" {
				line += " [error " + m.Error + "]"
			}
			if m.Role == model.RoleToolResult {
				line += fmt.Sprintf(" [result of %s, error %v]", m.ToolName, m.IsError)
			}
			out = append(out, line)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// A pi session imported into Dhara comes back: the Dhara folder is an
// import's source, into pi and into another Dhara folder (it was refused:
// "not a regular file", and --format dhara had no importer), with every
// message of every branch kept; the same folder again is found, not
// imported twice.
func TestImportDharaFolderBack(t *testing.T) {
	sources, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "pi", "store", "--home-dev-pi16-tree--", "*.jsonl"))
	sources = append(sources, filepath.Join("..", "..", "testdata", "pi", "store", "--home-dev-tools-fork--", "2026-03-07T12-01-28-240Z_019cc82c-8ab0-74f4-af74-30670cbf2bef.jsonl"),
		// An answer that failed, with its error message.
		filepath.Join("..", "..", "tui", "demo", "--home-you-code-site--", "2026-11-27T18-40-00-000Z_01a21e4e-a400-7004-8ff7-ee953ec1719a.jsonl"))
	for _, src := range sources {
		orig, err := OpenAs(src, "pi")
		if err != nil {
			t.Fatal(err)
		}
		skip := map[string][]string{"dhara": {model.RoleBashExecution}, "pi": {model.RoleSystem}}
		want := map[string][]string{"dhara": messageTexts(orig, skip["dhara"]...), "pi": messageTexts(orig, skip["pi"]...)}
		env := store.Env{Home: t.TempDir(), WorkingDirPath: t.TempDir()}
		rs, err := ImportFile(src, Options{Out: t.TempDir(), Env: env})
		if err != nil {
			t.Fatal(err)
		}
		folder := rs[0].Path
		for _, to := range Targets {
			for _, format := range []string{"", "dhara"} {
				what := filepath.Base(src) + " via Dhara --to " + to + " --format " + format
				out := t.TempDir()
				back, err := ImportFile(folder, Options{To: to, Format: format, Out: out, Env: env})
				if err != nil || len(back) != 1 || back[0].Already {
					t.Fatalf("%s: %+v, %v", what, back, err)
				}
				s, err := store.Open(back[0].Path)
				if err != nil {
					t.Fatal(err)
				}
				if got := messageTexts(s, skip[to]...); !slices.Equal(got, want[to]) {
					t.Errorf("%s: messages\n%s\nwant\n%s", what, strings.Join(got, "\n"), strings.Join(want[to], "\n"))
				}
				again, err := ImportFile(folder, Options{To: to, Format: format, Out: out, Env: env})
				if err != nil || len(again) != 1 || !again[0].Already || again[0].Path != back[0].Path {
					t.Errorf("%s again: %+v, %v", what, again, err)
				}
			}
		}
	}
	if _, err := ImportFile(t.TempDir(), Options{Env: store.Env{Home: t.TempDir()}}); err == nil || !strings.Contains(err.Error(), "no Dhara session") {
		t.Errorf("a folder that is no session: %v", err)
	}
}
