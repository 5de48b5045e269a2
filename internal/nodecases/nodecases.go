// Package nodecases reads the inputs and what Node made of them
// (testdata/jsjson/cases.mjs writes testdata/jsjson/cases.json), for the
// tests of the packages that must read and write as Node does.
package nodecases

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

type nodeCase struct{ In, Out string }

// Load returns the cases of one kind as {input, Node's output} pairs.
func Load(t testing.TB, kind string) [][2][]byte {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "testdata", "jsjson", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string][]nodeCase
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	var out [][2][]byte
	for _, c := range all[kind] {
		in, err1 := hex.DecodeString(c.In)
		want, err2 := hex.DecodeString(c.Out)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad case %v", c)
		}
		out = append(out, [2][]byte{in, want})
	}
	if len(out) == 0 {
		t.Fatalf("no %s cases", kind)
	}
	return out
}
