package jscan

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"os"
	"strings"
	"testing"
)

func TestValidMatchesEncodingJSON(t *testing.T) {
	cases := []string{
		`{}`, `[]`, `{"a":1}`, `{"a":[1,2,{"b":null}],"c":"x\"y"}`, ` [ 1 , 2 ] `, `"\u00e9"`,
		`-0.5e+10`, `0`, `true`, `null`, `{"a":{}}`, `[[],[[]],{}]`, "{\"a\":\"\xff\"}",
		`{`, `}`, `[1,]`, `{"a":1,}`, `{"a"}`, `{"a":}`, `01`, `1.`, `.5`, `-`, `1e`, `"\x"`, `"\u12"`,
		"\"a\tb\"", `[1 2]`, `{"a":1 "b":2}`, `{1:2}`, `nul`, `[`, `["a"`, `{"a":[}`, `[}`, `{]`, `{"a":1}}`, `{"a":1}x`, ``, ` `,
	}
	for _, c := range cases {
		// encoding/json rejects invalid UTF-8 only in neither case: both accept it.
		want := json.Valid([]byte(c))
		if got := Valid([]byte(c)); got != want {
			t.Errorf("Valid(%q) = %v, want %v", c, got, want)
		}
	}
}

func TestMembers(t *testing.T) {
	var keys, vals []string
	err := Members([]byte(` {"type":"message", "id" : "ab", "n":[1,{"x":2}],"e":{}} `), func(k, v []byte) bool {
		keys = append(keys, string(k))
		vals = append(vals, string(v))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(keys, ","); got != `"type","id","n","e"` {
		t.Errorf("keys = %s", got)
	}
	if got := strings.Join(vals, "|"); got != `"message"|"ab"|[1,{"x":2}]|{}` {
		t.Errorf("vals = %s", got)
	}
	if err := Members([]byte(`[1]`), func(k, v []byte) bool { return true }); err != ErrNotObject {
		t.Errorf("array: err = %v", err)
	}
	if err := Members([]byte(`{"a":1`), func(k, v []byte) bool { return true }); err == nil {
		t.Error("truncated object accepted")
	}
}

func TestUnquote(t *testing.T) {
	cases := map[string]string{
		`"plain"`:         "plain",
		`"a\nb\t\"c\"\\"`: "a\nb\t\"c\"\\",
		`"\u00e9\u4e2d"`:  "é中",
		`"\ud83d\ude00"`:  "😀",
		`"\ud83d x"`:      "\uFFFD x",
		"\"\xff\"":        "\uFFFD",
		`"\/"`:            "/",
		// As Node reads bytes that are not UTF-8: one U+FFFD for each
		// maximal subpart, not for each byte.
		"\"a\xe2\x82b\"":              "a\uFFFDb",
		"\"\xf0\x9f\x98\"":            "\uFFFD",
		"\"\xed\xa0\x80\"":            "\uFFFD\uFFFD\uFFFD",
		"\"\xc0\xaf\\n\xe2\x82\"":     "\uFFFD\uFFFD\n\uFFFD",
		"\"\xf4\x90\x80\x80\\u0041\"": "\uFFFD\uFFFD\uFFFD\uFFFDA",
	}
	for in, want := range cases {
		got, ok := Unquote([]byte(in))
		if !ok || got != want {
			t.Errorf("Unquote(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if !KeyIs([]byte(`"ty\u0070e"`), "type") || KeyIs([]byte(`"typo"`), "type") {
		t.Error("KeyIs")
	}
}

func TestDeepNesting(t *testing.T) {
	deep := strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000)
	if !Valid([]byte(deep)) {
		t.Error("deep array rejected")
	}
	if Valid([]byte(deep[:len(deep)-1])) {
		t.Error("unbalanced deep array accepted")
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":"c\u00e9"}]}`, `[]`, `{"type":"session"}`, `"x"`, `-1.5e3`, `{"m":{"a":1,"b":{"a":2},"a":3}}`, `{"m":{}}`, `{"m":{"a":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := json.Valid([]byte(s))
		if got := Valid([]byte(s)); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", s, got, want)
		}
		// NextWith validates as Next does, and finds the last member named
		// "a" of each object value.
		with := Object([]byte(s))
		for _, v, m, ok := with.NextWith("a"); ok; _, v, m, ok = with.NextWith("a") {
			var last []byte
			_ = Members(v, func(k, mv []byte) bool {
				if KeyIs(k, "a") {
					last = mv
				}
				return true
			})
			if string(m) != string(last) {
				t.Fatalf("%q: NextWith found %q in %q, want %q", s, m, v, last)
			}
		}
		if err := with.Err(); want != (err == nil || err == ErrNotObject) {
			t.Fatalf("%q: valid %v, NextWith walk: %v", s, want, err)
		}
		if !want {
			return
		}
		var members, fields, walked []string
		err := Members([]byte(s), func(k, v []byte) bool {
			if _, ok := Unquote(k); !ok {
				t.Fatalf("bad key %q", k)
			}
			if !json.Valid(v) {
				t.Fatalf("member value %q invalid", v)
			}
			members = append(members, string(k)+"="+string(v))
			return true
		})
		if err != nil && err != ErrNotObject {
			t.Fatalf("Members(%q): %v", s, err)
		}
		Fields([]byte(s), func(k, v []byte) bool { fields = append(fields, string(k)+"="+string(v)); return true })
		it := Walk([]byte(s))
		for k, ok := it.Next(); ok; k, ok = it.Next() {
			walked = append(walked, string(k))
		}
		if strings.Join(members, "\x00") != strings.Join(fields, "\x00") {
			t.Fatalf("%q: Members %q, Fields %q", s, members, fields)
		}
		if len(walked) != len(members) {
			t.Fatalf("%q: Members %q, Walk %q", s, members, walked)
		}
	})
}

func BenchmarkMembersLine(b *testing.B) {
	benchMembers(b, "../../testdata/pi/store/--home-dev-big--/2026-03-08T12-00-00-000Z_019ccd51-8e00-7324-a981-fea96681796c.jsonl")
}

// BenchmarkMembersStore validates the lines of a store pi wrote (set
// SKEIN_BENCH_STORE_FILE to one of its sessions, e.g. from compare.sh).
func BenchmarkMembersStore(b *testing.B) {
	path := os.Getenv("SKEIN_BENCH_STORE_FILE")
	if path == "" {
		b.Skip("SKEIN_BENCH_STORE_FILE not set")
	}
	benchMembers(b, path)
}

// benchMembers validates every line of the session file at path.
func benchMembers(b *testing.B, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		for _, l := range lines {
			if err := Members(l, func(k, v []byte) bool { return true }); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func TestWalk(t *testing.T) {
	obj := []byte(`{"role":"assistant","content":[{"type":"text","text":"a \"quoted\" } ]"}],"n":1,"timestamp":123}`)
	var keys []string
	it := Walk(obj)
	for k, ok := it.Next(); ok; k, ok = it.Next() {
		keys = append(keys, Key(k))
		if Key(k) == "timestamp" && string(it.Value()) != "123" {
			t.Errorf("timestamp %q", it.Value())
		}
	}
	if strings.Join(keys, ",") != "role,content,n,timestamp" {
		t.Errorf("keys %v", keys)
	}
	var lazyKeys, eagerKeys []string // a walk that never asks for a value, and the validating one
	for it := Walk(obj); ; {
		k, ok := it.Next()
		if !ok {
			break
		}
		lazyKeys = append(lazyKeys, Key(k))
	}
	_ = Members(obj, func(k, _ []byte) bool { eagerKeys = append(eagerKeys, Key(k)); return true })
	if strings.Join(lazyKeys, ",") != strings.Join(eagerKeys, ",") {
		t.Errorf("lazy %v, eager %v", lazyKeys, eagerKeys)
	}
}

// TestSpecialMask checks the lowest flag of specialMask against a byte loop
// for every byte value at every position, above and below other bytes.
func TestSpecialMask(t *testing.T) {
	special := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }
	fillers := []byte{'a', 0x00, 0x1f, 0x20, 0x21, 0x23, '\\', 0x5b, 0x7f, 0x80, 0xa2, 0xdc, 0xff}
	for pos := 0; pos < 8; pos++ {
		for c := 0; c < 256; c++ {
			for _, below := range fillers {
				for _, above := range fillers {
					var b [8]byte
					for k := range b {
						switch {
						case k < pos:
							b[k] = below
						case k > pos:
							b[k] = above
						default:
							b[k] = byte(c)
						}
					}
					want := -1
					for k, x := range b {
						if special(x) {
							want = k
							break
						}
					}
					got := -1
					if m := specialMask(binary.LittleEndian.Uint64(b[:])); m != 0 {
						got = bits.TrailingZeros64(m) >> 3
					}
					if got != want {
						t.Fatalf("%x: first special byte %d, mask says %d", b, want, got)
					}
				}
			}
		}
	}
}

// TestIndexSpecial checks the vector and word-at-a-time searches against a
// byte loop: every length to 70, the special byte at every position, over text
// that has bytes just either side of the special ranges.
func TestIndexSpecial(t *testing.T) {
	want := func(b []byte) int {
		for i, c := range b {
			if c == '"' || c == '\\' || c < 0x20 {
				return i
			}
		}
		return len(b)
	}
	plain := []byte{'a', 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0x9f, 0xa2, 0xdc, 0xff}
	buf := make([]byte, 80)
	for n := 0; n <= 70; n++ {
		for k := range buf {
			buf[k] = plain[k%len(plain)]
		}
		b := buf[:n]
		for off := 0; off <= min(n, 9); off++ {
			if got, w := indexSpecial(b, off), off+want(b[off:]); got != w {
				t.Fatalf("indexSpecial(%x, %d) = %d, want %d", b, off, got, w)
			}
			if got, w := indexSpecialGo(b, off), off+want(b[off:]); got != w {
				t.Fatalf("indexSpecialGo(%x, %d) = %d, want %d", b, off, got, w)
			}
		}
		for pos := 0; pos < n; pos++ {
			for _, c := range []byte{'"', '\\', 0x00, 0x0a, 0x1f} {
				b[pos] = c
				for _, off := range []int{0, 1, pos} {
					if got, w := indexSpecial(b, off), off+want(b[off:]); got != w {
						t.Fatalf("indexSpecial(%x, %d) = %d, want %d", b, off, got, w)
					}
					if got, w := indexSpecialGo(b, off), off+want(b[off:]); got != w {
						t.Fatalf("indexSpecialGo(%x, %d) = %d, want %d", b, off, got, w)
					}
				}
			}
			b[pos] = plain[pos%len(plain)]
		}
	}
}

// TestDigitsEnd checks the word-at-a-time digit run against a byte loop for
// every byte value after runs of every length, at every offset.
func TestDigitsEnd(t *testing.T) {
	want := func(b []byte, i int) int {
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i
	}
	buf := make([]byte, 24)
	for run := 0; run <= 20; run++ {
		for c := 0; c < 256; c++ {
			for _, after := range []byte{'0', 0x00, 0xff, 0xba, 0x7f} {
				for k := range buf {
					switch {
					case k < run:
						buf[k] = byte('0' + k%10)
					case k == run:
						buf[k] = byte(c)
					default:
						buf[k] = after
					}
				}
				for _, n := range []int{run, run + 1, len(buf)} {
					b := buf[:n]
					for off := 0; off <= min(run, 3); off++ {
						if got, w := digitsEnd(b, off), want(b, off); got != w {
							t.Fatalf("digitsEnd(%x, %d) = %d, want %d", b, off, got, w)
						}
					}
				}
			}
		}
	}
}

func TestPlain(t *testing.T) {
	for n := 0; n < 20; n++ {
		for pos := 0; pos < n; pos++ {
			for _, c := range []byte{'\\', 0x80, 0xff, 0xc3, '"', 'a', 0x5b, 0x5d, 0x7f} {
				b := []byte(strings.Repeat("x", n))
				b[pos] = c
				want := c != '\\' && c < 0x80
				if got := Plain(b); got != want {
					t.Fatalf("Plain(%q) = %v", b, got)
				}
			}
		}
	}
}
