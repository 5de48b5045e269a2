package jscan

import "testing"

func TestNumbers(t *testing.T) {
	a, b, c := -1.0, -1.0, -1.0
	obj := []byte(`{"a":1,"b":"x","\u0061":2.5,"d":4,"b2":7}`)
	Numbers(obj, []string{"a", "b", "c"}, &a, &b, &c)
	if a != 2.5 || b != 0 || c != -1 {
		t.Errorf("Numbers = %v %v %v; want 2.5 0 -1 (the last a, b no number, c absent)", a, b, c)
	}
	plain := []byte(`{"input":1,"output":2,"other":{"x":[3]},"cache":4}`)
	keys := []string{"input", "output", "cache"}
	if n := testing.AllocsPerRun(100, func() { Numbers(plain, keys, &a, &b, &c) }); n != 0 {
		t.Errorf("Numbers allocates %v times a call; want none", n)
	}
}
