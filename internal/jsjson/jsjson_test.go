package jsjson

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"skein/internal/nodecases"
	"skein/internal/utf8js"
)

// TestValueAsNode: AppendValue writes what JSON.stringify(JSON.parse(text))
// writes in Node, text being the bytes read as pi reads a file.
func TestValueAsNode(t *testing.T) {
	for _, c := range nodecases.Load(t, "value") {
		in, want := c[0], c[1]
		if got := AppendValue(nil, in); !bytes.Equal(got, want) {
			t.Errorf("AppendValue(%q)\n got %q\nwant %q", in, got, want)
		}
		if Canonical(in) != bytes.Equal(in, want) {
			t.Errorf("Canonical(%q) = %v", in, Canonical(in))
		}
		if !Canonical(want) {
			t.Errorf("Canonical(%q) is false for Node's own output", want)
		}
	}
}

func TestStringAsNode(t *testing.T) {
	for _, c := range nodecases.Load(t, "string") {
		in, want := c[0], c[1]
		if got := AppendString(nil, string(in)); !bytes.Equal(got, want) {
			t.Errorf("AppendString(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

var point1 = 0.1 // a variable: Go's constant arithmetic is exact

func TestNumber(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1.5, "-1.5"}, {100, "100"},
		{1e21, "1e+21"}, {1e20, "100000000000000000000"}, {123456789012345680000, "123456789012345680000"},
		{1e-6, "0.000001"}, {1e-7, "1e-7"}, {1.5e-7, "1.5e-7"}, {-2.5e-8, "-2.5e-8"},
		{9007199254740993, "9007199254740992"}, {1 << 62, "4611686018427388000"},
		{5e-324, "5e-324"}, {math.MaxFloat64, "1.7976931348623157e+308"},
		{point1 + 0.2, "0.30000000000000004"}, {math.NaN(), "null"}, {math.Inf(1), "null"}, {math.Inf(-1), "null"},
	} {
		if got := FormatNumber(c.f); got != c.want {
			t.Errorf("FormatNumber(%v) = %s, want %s", c.f, got, c.want)
		}
	}
	// Random doubles read back as themselves, in the shortest digits.
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		s := FormatNumber(f)
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || back != f && !(f == 0 && back == 0) {
			t.Fatalf("FormatNumber(%v) = %s reads back as %v (%v)", f, s, back, err)
		}
		short := strconv.FormatFloat(math.Abs(f), 'e', -1, 64)
		digits := strings.Replace(short[:strings.IndexByte(short, 'e')], ".", "", 1)
		if got := strings.TrimLeft(strings.NewReplacer(".", "", "-", "").Replace(s[:strings.IndexAny(s+"e", "e")]), "0"); strings.TrimRight(got, "0") != strings.TrimRight(digits, "0") {
			t.Fatalf("FormatNumber(%v) = %s: digits %s, shortest %s", f, s, got, digits)
		}
		// The number is canonical as written.
		if !Canonical([]byte(s)) {
			t.Fatalf("Canonical(%s) is false", s)
		}
	}
}

func TestCanonical(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{`{"a":1,"b":[true,false,null],"c":"x\n\"\\\u001b\ud800"}`, true},
		{`{"a":1,"a":2}`, false},
		{`{"a":{"x":1},"b":{"x":1}}`, true}, // the same key in two objects
		{`[{"a":1},{"a":1}]`, true},
		{`{"0":1,"1":2,"a":3}`, true}, {`{"1":1,"0":2}`, false}, {`{"a":1,"0":2}`, false},
		{`{"4294967295":1,"0":2}`, false}, {`{"a":1,"4294967295":2}`, true}, {`{"01":1,"0":2}`, false},
		{`"\u00e9"`, false}, {`"\u001B"`, false}, {`"\u000a"`, false}, {`"\/"`, false},
		{`"\ud83d\ude00"`, false}, {`"\ud83dA"`, true}, {`"\ud83d\u0041"`, false}, {`"\udc00\ud800"`, true},
		{`1.0`, false}, {`1e2`, false}, {`-0`, false}, {`0`, true}, {`-0.5`, true}, {`0.000001`, true}, {`0.0000001`, false},
		{`123456789012345`, true}, {`9007199254740993`, false}, {`0.123456789012345`, true}, {`0.1234567890123456789`, false},
		{`1.5e-7`, true}, {`1e+21`, true}, {`1e21`, false},
		{` 1`, false}, {`[1, 2]`, false}, {`{"a" :1}`, false}, {"\"\xff\"", false}, {"\"\xe2\x82\xac\"", true},
		{`{`, false}, {`[1,`, false}, {`"abc`, false}, {``, false}, {`tru`, false}, {`[1]x`, false},
	} {
		if got := Canonical([]byte(c.in)); got != c.want {
			t.Errorf("Canonical(%s) = %v, want %v", c.in, got, c.want)
		}
	}
	// Many keys: past manyKeys they are looked up in a map.
	var b strings.Builder
	b.WriteString("{")
	for i := range 100 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i))
	}
	if !Canonical([]byte(b.String() + "}")) {
		t.Error("100 distinct keys: not canonical")
	}
	if Canonical([]byte(b.String()+`,"k3":0}`)) || Canonical([]byte(b.String()+`,"k99":0}`)) {
		t.Error("a repeated key among 100: canonical")
	}
}

// Nesting deeper than any stack of calls would hold.
func TestDeep(t *testing.T) {
	const depth = 1 << 20
	in := strings.Repeat(`[{"a":`, depth) + "1.0" + strings.Repeat("}]", depth)
	want := strings.Repeat(`[{"a":`, depth) + "1" + strings.Repeat("}]", depth)
	if got := AppendValue(nil, []byte(in)); string(got) != want {
		t.Error("deep value rewritten wrongly")
	}
	if !Canonical([]byte(want)) {
		t.Error("deep value not canonical")
	}
}

// The rewrite never writes what is not JSON.
func TestInvalidIsNull(t *testing.T) {
	for _, in := range []string{``, `{`, `[1,`, `{"a"}`, `"\x"`, `"\u12"`, `tru`, `1 2`, `{"a":1,}`, `[1]]`, "\"a\x01\""} {
		if got := appendRewritten([]byte("x"), []byte(in)); string(got) != "xnull" {
			t.Errorf("appendRewritten(%q) = %q, want null", in, got)
		}
	}
}

func FuzzAppendValue(f *testing.F) {
	for _, c := range nodecases.Load(f, "value") {
		f.Add(c[0])
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !json.Valid(in) {
			return
		}
		out := AppendValue(nil, in)
		if !utf8.Valid(out) || !json.Valid(out) {
			t.Fatalf("%q: output %q is not valid UTF-8 JSON", in, out)
		}
		if !Canonical(out) {
			t.Fatalf("%q: output %q is not canonical", in, out)
		}
		if again := AppendValue(nil, out); !bytes.Equal(again, out) {
			t.Fatalf("%q: not idempotent: %q then %q", in, out, again)
		}
		// The fast check and the rewriter agree.
		if slow := appendRewritten(nil, in); !bytes.Equal(slow, out) {
			t.Fatalf("%q: Canonical said %v, but the rewrite is %q, not %q", in, Canonical(in), slow, out)
		}
		// The same value, where Go reads strings as JavaScript does.
		if utf8.Valid(in) && !bytes.Contains(bytes.ToLower(in), []byte(`\ud`)) {
			var a, b any
			json.Unmarshal(in, &a)
			json.Unmarshal(out, &b)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%q: %q is another value", in, out)
			}
		}
	})
}

func FuzzAppendString(f *testing.F) {
	for _, c := range nodecases.Load(f, "string") {
		f.Add(string(c[0]))
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := AppendString(nil, s)
		if !utf8.Valid(out) || !json.Valid(out) || !Canonical(out) {
			t.Fatalf("%q: %q", s, out)
		}
		if utf8.ValidString(s) {
			var back string
			if json.Unmarshal(out, &back); back != s {
				t.Fatalf("%q reads back as %q", s, back)
			}
		}
	})
}

var benchMessage = []byte(`{"role":"assistant","content":[{"type":"text","text":"The nav links wrap under the logo because the container is 320px wide: \"flex-wrap: wrap\" lets them fall to a second line.\n\nこんにちは — fixed in header.css."},{"type":"toolCall","id":"toolu_01","name":"edit","arguments":{"path":"src/header.css","oldText":".nav {\n  display: flex;\n}","newText":".nav {\n  display: flex;\n  flex-wrap: nowrap;\n}"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":21034,"output":120,"cacheRead":0,"cacheWrite":0,"totalTokens":21154,"cost":{"input":0.063102,"output":0.0018,"cacheRead":0,"cacheWrite":0,"total":0.064902}},"stopReason":"toolUse","timestamp":1772442025829}`)

func BenchmarkCanonical(b *testing.B) {
	b.SetBytes(int64(len(benchMessage)))
	for b.Loop() {
		if !Canonical(benchMessage) {
			b.Fatal("not canonical")
		}
	}
}

// A long tool result: the cost is the searches for quotes and backslashes.
func BenchmarkCanonicalLongString(b *testing.B) {
	text := strings.Repeat("package main\n\nfunc main() {\n\tprintln(\"hello, world\")\n}\n", 2000)
	raw := AppendString(nil, text)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if !Canonical(raw) {
			b.Fatal("not canonical")
		}
	}
}

func BenchmarkAppendString(b *testing.B) {
	buf := make([]byte, 0, 1024)
	for b.Loop() {
		buf = AppendString(buf[:0], "/home/dev/code/site/src/header.css")
	}
}

// appendStringBytewise is AppendString as it was, a byte a step: the
// reference plainRun's eight-byte steps must agree with.
func appendStringBytewise(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			_, size = utf8js.DecodeRuneInString(s[i:])
			i += size
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = appendEscaped(dst, rune(c))
		i++
		start = i
	}
	return append(append(dst, s[start:]...), '"')
}

// Every byte that needs care, alone and in runs, at every offset of an
// eight-byte step, among plain bytes either side.
func TestAppendStringSteps(t *testing.T) {
	special := []string{"\x00", "\x1f", "\x20", "\"", "\\", "\x7f", "\x80", "\xff", "é", "\xe2\x80\xa8", "\xed\xa0\x80", "!", "#", "[", "]", "\x21\x22"}
	for _, sp := range special {
		for pre := range 20 {
			for post := range 10 {
				s := strings.Repeat("a", pre) + sp + strings.Repeat("z", post) + sp
				if got, want := string(AppendString(nil, s)), string(appendStringBytewise(nil, s)); got != want {
					t.Fatalf("%q: %s, want %s", s, got, want)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for k := range b {
			switch r.IntN(4) {
			case 0:
				b[k] = byte(r.IntN(256))
			default:
				b[k] = byte(0x20 + r.IntN(0x60))
			}
		}
		if got, want := string(AppendString(nil, string(b))), string(appendStringBytewise(nil, string(b))); got != want {
			t.Fatalf("%q: %s, want %s", b, got, want)
		}
	}
}
