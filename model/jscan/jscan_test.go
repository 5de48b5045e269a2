package jscan

import (
	"bytes"
	"encoding/json"
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
	for _, s := range []string{`{"a":[1,2,{"b":"c\u00e9"}]}`, `[]`, `{"type":"session"}`, `"x"`, `-1.5e3`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := json.Valid([]byte(s))
		if got := Valid([]byte(s)); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", s, got, want)
		}
		if want {
			_ = Members([]byte(s), func(k, v []byte) bool {
				if _, ok := Unquote(k); !ok {
					t.Fatalf("bad key %q", k)
				}
				if !json.Valid(v) {
					t.Fatalf("member value %q invalid", v)
				}
				return true
			})
		}
	})
}

func BenchmarkMembersLine(b *testing.B) {
	data, err := os.ReadFile("../../testdata/pi/store/--home-dev-big--/2026-03-08T12-00-00-000Z_019ccd51-8e00-7324-a981-fea96681796c.jsonl")
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

// BenchmarkMembersStore validates the lines of a store pi wrote (set
// SKEIN_BENCH_STORE_FILE to one of its sessions, e.g. from compare.sh).
func BenchmarkMembersStore(b *testing.B) {
	path := os.Getenv("SKEIN_BENCH_STORE_FILE")
	if path == "" {
		b.Skip("SKEIN_BENCH_STORE_FILE not set")
	}
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

func TestFieldsLazy(t *testing.T) {
	obj := []byte(`{"role":"assistant","content":[{"type":"text","text":"a \"quoted\" } ]"}],"n":1,"timestamp":123}`)
	var keys []string
	FieldsLazy(obj, func(k []byte, v func() []byte) bool {
		keys = append(keys, Key(k))
		if Key(k) == "timestamp" && string(v()) != "123" {
			t.Errorf("timestamp %q", v())
		}
		return true
	})
	if strings.Join(keys, ",") != "role,content,n,timestamp" {
		t.Errorf("keys %v", keys)
	}
	var lazyKeys, eagerKeys []string
	FieldsLazy(obj, func(k []byte, _ func() []byte) bool { lazyKeys = append(lazyKeys, Key(k)); return true })
	Fields(obj, func(k, _ []byte) bool { eagerKeys = append(eagerKeys, Key(k)); return true })
	if strings.Join(lazyKeys, ",") != strings.Join(eagerKeys, ",") {
		t.Errorf("lazy %v, eager %v", lazyKeys, eagerKeys)
	}
}
