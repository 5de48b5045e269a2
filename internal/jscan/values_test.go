package jscan

import "testing"

// ObjectMember and StringMember read a member of what may be no object,
// and say nothing (not a panic) of anything else.
func TestObjectMember(t *testing.T) {
	obj := []byte(`{"a":"x","n":1,"a":"y","o":{"b":"z"}}`)
	for _, c := range []struct {
		v        string
		key, raw string
		str      string
	}{
		{string(obj), "a", `"y"`, "y"},
		{string(obj), "n", "1", ""},
		{string(obj), "o", `{"b":"z"}`, ""},
		{string(obj), "none", "", ""},
		{`["a"]`, "a", "", ""},
		{`"a"`, "a", "", ""},
		{"", "a", "", ""},
	} {
		if got := ObjectMember([]byte(c.v), c.key); string(got) != c.raw {
			t.Errorf("ObjectMember(%s, %s) = %s, want %s", c.v, c.key, got, c.raw)
		}
		if got := StringMember([]byte(c.v), c.key); got != c.str {
			t.Errorf("StringMember(%s, %s) = %q, want %q", c.v, c.key, got, c.str)
		}
	}
	if got := StringMember(ObjectMember(obj, "o"), "b"); got != "z" {
		t.Errorf("nested: %q", got)
	}
}
