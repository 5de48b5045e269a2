package jscan

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"skein/internal/utf8js"
)

// unquoteBytewise is Unquote's loop as it was, a byte a step: the
// reference for its runs.
func unquoteBytewise(raw []byte) (string, bool) {
	body := raw[1 : len(raw)-1]
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			if c < utf8.RuneSelf {
				out = append(out, c)
				i++
				continue
			}
			r, size := utf8js.DecodeRune(body[i:])
			out = utf8.AppendRune(out, r)
			i += size
			continue
		}
		if i+1 >= len(body) {
			return "", false
		}
		switch body[i+1] {
		case '"', '\\', '/':
			out = append(out, body[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if i+6 > len(body) {
				return "", false
			}
			r := hex4(body[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
					if r2 := hex4(body[i+2 : i+6]); utf16.DecodeRune(r, r2) != utf8.RuneError {
						out = utf8.AppendRune(out, utf16.DecodeRune(r, r2))
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return "", false
		}
		i += 2
	}
	return string(out), true
}

// Escapes, multi-byte sequences well and ill formed, at every offset of an
// eight-byte step and at random: the same value as a byte a step.
func TestUnquoteRuns(t *testing.T) {
	pieces := []string{`\"`, `\\`, `\n`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, "é", "\xe2\x80\xa8", "\xed\xa0\x80", "\xff", "\xc3", "\xf0\x9f\x98", "\xef\xbf\xbd", "a", "\x01"}
	for _, p := range pieces {
		for pre := range 18 {
			for post := range 10 {
				lit := `"` + strings.Repeat("x", pre) + p + strings.Repeat("y", post) + p + `\t"`
				got, ok := Unquote([]byte(lit))
				want, wok := unquoteBytewise([]byte(lit))
				if got != want || ok != wok {
					t.Fatalf("%q: %q %v, want %q %v", lit, got, ok, want, wok)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 30000 {
		var b strings.Builder
		b.WriteByte('"')
		for range r.IntN(30) {
			switch r.IntN(6) {
			case 0:
				b.WriteString(pieces[r.IntN(len(pieces))])
			case 1:
				b.WriteByte(byte(0x80 + r.IntN(0x80)))
			default:
				b.WriteByte(byte(0x20 + r.IntN(0x5f)))
			}
		}
		b.WriteString(`\n"`)
		lit := []byte(b.String())
		got, ok := Unquote(lit)
		want, wok := unquoteBytewise(lit)
		if got != want || ok != wok {
			t.Fatalf("%q: %q %v, want %q %v", lit, got, ok, want, wok)
		}
	}
}
