package utf8js

import (
	"testing"
	"unicode/utf8"

	"skein/internal/nodecases"
)

func TestDecodeAsNode(t *testing.T) {
	for _, c := range nodecases.Load(t, "decode") {
		in, want := c[0], c[1]
		if got := AppendValid(nil, in); string(got) != string(want) {
			t.Errorf("AppendValid(%x) = %x, Node reads %x", in, got, want)
		}
		if got := String(string(in)); got != string(want) {
			t.Errorf("String(%x) = %x, Node reads %x", in, got, want)
		}
		// Rune by rune, in both forms, the same.
		var runes []byte
		for i := 0; i < len(in); {
			r, size := DecodeRune(in[i:])
			r2, size2 := DecodeRuneInString(string(in[i:]))
			if r != r2 || size != size2 || size == 0 {
				t.Fatalf("%x at %d: DecodeRune %U/%d, DecodeRuneInString %U/%d", in, i, r, size, r2, size2)
			}
			runes = utf8.AppendRune(runes, r)
			i += size
		}
		if string(runes) != string(want) {
			t.Errorf("DecodeRune over %x = %x, Node reads %x", in, runes, want)
		}
	}
}

func TestEmpty(t *testing.T) {
	if r, size := DecodeRune(nil); r != utf8.RuneError || size != 0 {
		t.Errorf("DecodeRune(nil) = %U, %d", r, size)
	}
	if r, size := DecodeRuneInString(""); r != utf8.RuneError || size != 0 {
		t.Errorf("DecodeRuneInString(\"\") = %U, %d", r, size)
	}
}

// whatwg is the decoder of the Encoding Standard (encoding.spec.whatwg.org,
// "UTF-8 decoder"), step by step as written there.
func whatwg(in []byte) []byte { return appendWHATWG(nil, in) }

func appendWHATWG(out, in []byte) []byte {
	cp, needed, seen := rune(0), 0, 0
	lo, hi := byte(0x80), byte(0xBF)
	for i := 0; i <= len(in); i++ {
		if i == len(in) {
			if needed != 0 {
				out = utf8.AppendRune(out, utf8.RuneError)
			}
			break
		}
		c := in[i]
		if needed == 0 {
			switch {
			case c <= 0x7F:
				out = append(out, c)
			case c >= 0xC2 && c <= 0xDF:
				needed, cp = 1, rune(c&0x1F)
			case c >= 0xE0 && c <= 0xEF:
				if c == 0xE0 {
					lo = 0xA0
				}
				if c == 0xED {
					hi = 0x9F
				}
				needed, cp = 2, rune(c&0xF)
			case c >= 0xF0 && c <= 0xF4:
				if c == 0xF0 {
					lo = 0x90
				}
				if c == 0xF4 {
					hi = 0x8F
				}
				needed, cp = 3, rune(c&0x7)
			default:
				out = utf8.AppendRune(out, utf8.RuneError)
			}
			continue
		}
		if c < lo || c > hi {
			cp, needed, seen, lo, hi = 0, 0, 0, 0x80, 0xBF
			out = utf8.AppendRune(out, utf8.RuneError)
			i-- // the byte is read again
			continue
		}
		lo, hi = 0x80, 0xBF
		cp = cp<<6 | rune(c&0x3F)
		if seen++; seen == needed {
			out = utf8.AppendRune(out, cp)
			cp, needed, seen = 0, 0, 0
		}
	}
	return out
}

// Every input of up to three bytes, and four-byte ones from a sample of
// interesting bytes, against the standard's decoder.
func TestAgainstTheStandard(t *testing.T) {
	var got, want []byte
	check := func(in []byte) {
		got, want = AppendValid(got[:0], in), appendWHATWG(want[:0], in)
		if string(got) != string(want) {
			t.Fatalf("%x: %x, the standard reads %x", in, got, want)
		}
	}
	in := make([]byte, 3)
	for a := 0; a < 256; a++ {
		check([]byte{byte(a)})
		for b := 0; b < 256; b++ {
			check([]byte{byte(a), byte(b)})
			for c := 0; c < 256; c++ {
				in[0], in[1], in[2] = byte(a), byte(b), byte(c)
				check(in)
			}
		}
	}
	sample := []byte{0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFE, 0xFF}
	for _, a := range sample {
		for _, b := range sample {
			for _, c := range sample {
				for _, d := range sample {
					check([]byte{a, b, c, d})
					check([]byte{a, b, c, d, 0x80})
				}
			}
		}
	}
}

func FuzzAppendValid(f *testing.F) {
	for _, s := range []string{"", "abc", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80", "é\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		out := AppendValid(nil, b)
		if !utf8.Valid(out) {
			t.Fatalf("invalid output %x", out)
		}
		if String(string(b)) != string(out) {
			t.Fatal("String and AppendValid differ")
		}
		if utf8.Valid(b) && string(out) != string(b) {
			t.Fatal("valid input changed")
		}
		if string(out) != string(whatwg(b)) {
			t.Fatalf("%x: %x, the standard reads %x", b, out, whatwg(b))
		}
		if string(AppendValid(nil, out)) != string(out) {
			t.Fatal("not idempotent")
		}
	})
}

func BenchmarkAppendValid(b *testing.B) {
	text := []byte(`{"role":"assistant","content":[{"type":"text","text":"The nav links wrap under the logo — こんにちは"}]}`)
	buf := make([]byte, 0, 4096)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		buf = AppendValid(buf[:0], text)
	}
}
