package jscan

import (
	"fmt"
	"testing"
)

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

// Lines numbers every line, blank ones too, and yields those that hold
// something, trimmed, the last without a line end included; it stops when
// asked to.
func TestLines(t *testing.T) {
	var got []string
	for no, line := range Lines([]byte(" {\"a\":1}\r\n\n  \t\nx\n{}")) {
		got = append(got, fmt.Sprintf("%d:%s", no, line))
	}
	if want := "[1:{\"a\":1} 4:x 5:{}]"; fmt.Sprint(got) != want {
		t.Errorf("%s, want %s", got, want)
	}
	n := 0
	for range Lines([]byte("a\nb\nc")) {
		if n++; n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("%d lines after a break", n)
	}
	for range Lines(nil) {
		t.Error("a line in nothing")
	}
}
