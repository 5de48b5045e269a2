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

func TestStrings(t *testing.T) {
	a, b, c := "-", "-", "-"
	var rest []string
	obj := []byte(`{"a":"x","b":1,"d":{"e":"f"},"\u0061":"y","g":true}`)
	Strings(obj, []string{"a", "b", "c"}, []*string{&a, &b, &c}, func(key string, val []byte) { rest = append(rest, key+"="+string(val)) })
	if a != "y" || b != "" || c != "-" {
		t.Errorf("Strings = %q %q %q; want y, \"\" and - (the last a, b no string, c absent)", a, b, c)
	}
	if len(rest) != 2 || rest[0] != `d={"e":"f"}` || rest[1] != "g=true" {
		t.Errorf("rest saw %q, want d and g", rest)
	}
	if Strings(obj, []string{"a"}, []*string{&a}, nil); a != "y" {
		t.Errorf("Strings with no rest = %q, want y", a)
	}
	plain := []byte(`{"type":"message","id":"m1","parentId":"m0","message":{"role":"user"}}`)
	keys := []string{"type", "id", "parentId"}
	// The strings are copies (String's), and nothing else allocates.
	copies := testing.AllocsPerRun(100, func() {
		for _, m := range [][]byte{[]byte(`"message"`), []byte(`"m1"`), []byte(`"m0"`)} {
			a, _ = String(m)
		}
	})
	var role string
	if n := testing.AllocsPerRun(100, func() {
		Strings(plain, keys, []*string{&a, &b, &c}, func(key string, val []byte) {
			if key == "message" {
				role = string(val[:1])
			}
		})
	}); n != copies || role != "{" {
		t.Errorf("Strings allocates %v times a call, the role %q; want %v (its three copies), {", n, role, copies)
	}
}

func TestRaws(t *testing.T) {
	var a, b, c []byte
	obj := []byte(`{"a":1,"b":{"x":[2]},"a":"y","d":null}`)
	if err := Raws(obj, []string{"a", "b", "c"}, &a, &b, &c); err != nil || string(a) != `"y"` || string(b) != `{"x":[2]}` || c != nil {
		t.Errorf("Raws = %s %s %s, %v; want the last a, b's object, no c", a, b, c, err)
	}
	if err := Raws([]byte(`{"a":1,`), []string{"a"}, &a); err == nil {
		t.Error("Raws of a cut object gave no error")
	}
	if n := testing.AllocsPerRun(100, func() { _ = Raws(obj, []string{"a", "b", "c"}, &a, &b, &c) }); n != 0 {
		t.Errorf("Raws allocates %v times a call; want none", n)
	}
}
