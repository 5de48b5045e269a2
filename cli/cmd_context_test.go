package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestContextMatchesReference checks the CLI's JSON, end to end, against pi.
func TestContextMatchesReference(t *testing.T) {
	for _, f := range []string{fixture(t, webapp, "2026-03-03"), fixture(t, "../testdata/pi/store/--home-dev-tools--", "2026-03-04")} {
		out, _, code := skein(t, "session", "context", "--json", f)
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		delete(got, "entryIds")
		data, _ := os.ReadFile(filepath.Join("../testdata/pi/expected", strings.TrimPrefix(f, "../testdata/pi/")+".json"))
		var exp struct {
			Context map[string]any `json:"context"`
		}
		if err := json.Unmarshal(data, &exp); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, exp.Context) {
			t.Errorf("%s: context differs from pi's", f)
		}
	}
}
