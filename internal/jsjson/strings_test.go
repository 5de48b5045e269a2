package jsjson

import "testing"

// TestAppendStringsAndKey: an array of strings and a member's name as
// JSON.stringify writes them, escapes and the empty array included.
func TestAppendStringsAndKey(t *testing.T) {
	for _, c := range []struct {
		list []string
		want string
	}{{nil, `[]`}, {[]string{"a"}, `["a"]`}, {[]string{"a\"b", "\n"}, `["a\"b","\n"]`}} {
		if got := string(AppendStrings([]byte("x"), c.list)); got != "x"+c.want {
			t.Errorf("%q: %s, want x%s", c.list, got, c.want)
		}
	}
	if got := string(AppendKey([]byte("{"), `k"`)); got != `{"k\"":` {
		t.Errorf("key: %s", got)
	}
}
