package convert

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"skein/store"
	"testing"
)

// A 2023 browsing call answered by three replies, imported into Dhara and
// into pi: every reply stays the call's result, none is kept aside as a
// result without a call (skein.unpairedToolResult, which no screen shows).
func TestImportChatGPTBrowsingResults(t *testing.T) {
	src := filepath.Join("..", "chatgpt", "testdata", "browsing-2023.json")
	for _, to := range Targets {
		out := t.TempDir()
		rs, err := ImportFile(src, Options{To: to, Out: out, Env: store.Env{Home: t.TempDir(), WorkingDirPath: out}})
		if err != nil || len(rs) != 1 {
			t.Fatalf("--to %s: %v, %v", to, rs, err)
		}
		var all []byte
		_ = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(p)
				all = append(all, data...)
			}
			return nil
		})
		if bytes.Contains(all, []byte("unpairedToolResult")) {
			t.Errorf("--to %s: a reply was kept as a result without its call", to)
		}
		for _, s := range []string{"will fly around the Moon on Artemis II.", "Jeremy Hansen will be the first Canadian to travel to the Moon."} {
			if !bytes.Contains(all, []byte(s)) {
				t.Errorf("--to %s: %q is lost", to, s)
			}
		}
	}
}
