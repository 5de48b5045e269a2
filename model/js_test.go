package model

import "testing"

// Lengths are JavaScript's lengths of the text pi reads: an ill-formed
// UTF-8 sequence is one U+FFFD, one code unit, however many bytes it has.
func TestLengthsOfIllFormedText(t *testing.T) {
	for _, c := range []struct {
		body string
		want int // the string's JavaScript length
	}{
		{"abc", 3},
		{"a\xe2\x82b", 3},       // a cut-short three-byte sequence: one U+FFFD
		{"\xf0\x9f\x98", 1},     // a cut-short four-byte one
		{"\xed\xa0\x80", 3},     // an encoded surrogate: three
		{"\xc0\xaf", 2},         // an overlong: two
		{"\xf0\x9f\x98\x80", 2}, // 😀, two code units
	} {
		raw := []byte(`"` + c.body + `"`)
		if n, ok := rawStringLen(raw); !ok || n != c.want {
			t.Errorf("rawStringLen(%q) = %d, want %d", raw, n, c.want)
		}
		if n := Utf16Len(c.body); n != c.want {
			t.Errorf("Utf16Len(%q) = %d, want %d", c.body, n, c.want)
		}
		if n := StringifyLen(raw); n != c.want+2 {
			t.Errorf("StringifyLen(%q) = %d, want %d", raw, n, c.want+2)
		}
	}
}
