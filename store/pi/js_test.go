package pi

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/internal/utf8js"
)

// recursiveStringifyLen is StringifyLen as it was written first, one call a
// value (quadratic in the depth): the reference for the one-pass version.
func recursiveStringifyLen(raw []byte) int {
	raw = raw[jscan.SkipSpace(raw, 0):]
	if len(raw) == 0 {
		return 0
	}
	switch raw[0] {
	case '"':
		return stringifiedStringLen(raw)
	case 't', 'n':
		return 4
	case 'f':
		return 5
	case '[':
		n, count := 2, 0
		_ = jscan.Elements(raw, func(v []byte) bool {
			n += recursiveStringifyLen(v)
			count++
			return true
		})
		if count > 1 {
			n += count - 1
		}
		return n
	case '{':
		type member struct{ key, val []byte }
		var members []member
		index := map[string]int{}
		_ = jscan.Members(raw, func(k, v []byte) bool {
			ks, _ := jscan.Unquote(k)
			if i, dup := index[ks]; dup {
				members[i].val = v
				return true
			}
			index[ks] = len(members)
			members = append(members, member{k, v})
			return true
		})
		n := 2
		for i, m := range members {
			if i > 0 {
				n++
			}
			n += stringifiedStringLen(m.key) + 1 + recursiveStringifyLen(m.val)
		}
		return n
	}
	f, _ := jsNumberValue(raw)
	return len(jsjson.FormatNumber(f))
}

var stringifyCases = []string{
	`0`, `-0`, `1e21`, `1.50`, `"x"`, `""`, `true`, `false`, `null`, `[]`, `{}`, ` [ ] `,
	`[1,2,3]`, `[[],[[]],{}]`, `{"a":1}`, `{"a":1,"b":[true,false,null]}`,
	`{"a":1,"a":22}`, `{"a":1,"b":2,"a":"333"}`, `{"\u0061":1,"a":2}`,
	`{ "path" : "src/main.go" , "offset" : 1.0e2 , "limit":20 }`,
	`"tab\there \"quoted\" \\ \u0001 \ud83d\ude00 \ud800 é 😀"`,
	`{"nested":{"a":{"b":{"c":[1,{"d":"e"},[]]}}},"z":{"y":1,"y":{"x":[1,2]}}}`,
}

// The one-pass count equals the recursive one, duplicates and all, also for
// objects past the size at which duplicates are found through a map.
func TestStringifyLenMatchesRecursion(t *testing.T) {
	cases := append([]string{}, stringifyCases...)
	var wide []string
	for k := range 40 {
		wide = append(wide, fmt.Sprintf(`"k%d":%d`, k%23, k*k))
	}
	cases = append(cases, "{"+strings.Join(wide, ",")+"}", `{"o":{`+strings.Join(wide, ",")+`},"p":[{`+strings.Join(wide[:20], ",")+`}]}`)
	for _, c := range cases {
		if got, want := StringifyLen([]byte(c)), recursiveStringifyLen([]byte(c)); got != want {
			t.Errorf("StringifyLen(%s) = %d, want %d", c, got, want)
		}
	}
	if got := StringifyLen([]byte(`{"a":1,"b":2,"a":"333"}`)); got != len(`{"a":"333","b":2}`) {
		t.Errorf("duplicate keys: %d", got)
	}
	for _, bad := range []string{``, `[`, `{"a"`, `{"a":`, `[1,`, `{"a":1,}`, `"x`} {
		_ = StringifyLen([]byte(bad)) // no panic
	}
}

// Depth costs a frame, not a call per level above: 100,000 levels are
// counted exactly.
func TestStringifyLenDeep(t *testing.T) {
	const depth = 100_000
	arr := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	if got := StringifyLen([]byte(arr)); got != len(arr) {
		t.Errorf("nested arrays: %d, want %d", got, len(arr))
	}
	obj := strings.Repeat(`{ "a" : `, depth) + "1" + strings.Repeat("}", depth)
	if got, want := StringifyLen([]byte(obj)), len(strings.Repeat(`{"a":`, depth)+"1"+strings.Repeat("}", depth)); got != want {
		t.Errorf("nested objects: %d, want %d", got, want)
	}
}

func FuzzStringifyLen(f *testing.F) {
	for _, c := range stringifyCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got := StringifyLen(raw)
		if !jscan.Valid(raw) || len(raw) > 4<<10 {
			return
		}
		// (The recursion read a string's closing quote as its last byte.)
		if want := recursiveStringifyLen(bytes.Trim(raw, " \t\r\n")); got != want {
			t.Fatalf("StringifyLen(%q) = %d, recursion says %d", raw, got, want)
		}
	})
}

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
		if n := utf8js.Len16(c.body); n != c.want {
			t.Errorf("utf8js.Len16(%q) = %d, want %d", c.body, n, c.want)
		}
		if n := StringifyLen(raw); n != c.want+2 {
			t.Errorf("StringifyLen(%q) = %d, want %d", raw, n, c.want+2)
		}
	}
}

func TestNonBlank(t *testing.T) {
	for _, c := range []string{`""`, `" "`, `"\n\t"`, `" \u00a0 "`, `"\u2028"`, `"\ufeff"`, `" x"`, `"\nx"`, `"\u0041"`, `" \"" `, `"\\"`, `"é"`, `" \u3000"`, `"\b"`, `"\f"`, `"\u000b"`} {
		raw := []byte(strings.TrimSpace(c))
		s, _ := bstr(raw)
		if got, want := nonBlank(raw), TrimJS(s) != ""; got != want {
			t.Errorf("nonBlank(%s) = %v, want %v", c, got, want)
		}
	}
	if nonBlank([]byte("null")) || nonBlank(nil) {
		t.Error("a non-string is not text")
	}
}
