package jscan

import "testing"

// AppendMember writes an object member by member: no comma after the
// brace, one between members.
func TestAppendMember(t *testing.T) {
	out := []byte("{")
	out = AppendMember(out, []byte(`"a"`), []byte(`1`))
	out = AppendMember(out, []byte(`"b"`), []byte(`[2]`))
	if got := string(append(out, '}')); got != `{"a":1,"b":[2]}` {
		t.Errorf("got %s", got)
	}
}
