package convert

import (
	"path/filepath"
	"testing"
	"time"

	"skein/store"
	"skein/store/pi"
)

// A Qwen Code chat its agent wrote (testdata/agentgen/qwen) is guessed,
// and imported into Dhara's store and into a pi file that pi's reader
// opens, each resuming with the source's context (a compression, a
// sub-agent).
func TestImportQwen(t *testing.T) {
	for _, sc := range []string{"compact", "subagent", "parallel"} {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "agentgen", "qwen", "fixtures", sc, "qwen-home", "projects", "*", "chats", "*.jsonl"))
		if len(files) != 1 {
			t.Fatalf("%s: %d chats", sc, len(files))
		}
		src := files[0]
		if f, err := GuessFormat(src); err != nil || f != "qwen" {
			t.Fatalf("%s: guessed %q %v", sc, f, err)
		}
		s, err := OpenAs(src, "qwen")
		if err != nil {
			t.Fatal(err)
		}
		want := len(s.BuildContext(s.Leaf()).Messages)
		for _, to := range []string{"dhara", "pi"} {
			r, err := ImportFile(src, Options{Format: "qwen", To: to, Out: filepath.Join(t.TempDir(), to), Now: time.Now()})
			if err != nil {
				t.Fatalf("%s to %s: %v", sc, to, err)
			}
			d, err := store.Open(r[0].Path)
			if err != nil {
				t.Fatal(err)
			}
			if to == "pi" {
				if _, err := pi.Open(r[0].Path); err != nil {
					t.Fatal(err)
				}
			}
			if got := len(d.BuildContext(d.Leaf()).Messages); got != want {
				t.Errorf("%s to %s: the chat's context has %d messages, the import's %d", sc, to, want, got)
			}
		}
	}
}
