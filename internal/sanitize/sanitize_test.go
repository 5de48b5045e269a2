package sanitize

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// Every case is written with escapes, so that this file shows what it tests.
func TestText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"\x1b]0;pwned\x07", "␛]0;pwned␇"},
		{"\x1b[2J\x1b[H", "␛[2J␛[H"},
		{"\x1b]52;c;ZWNobw==\x07", "␛]52;c;ZWNobw==␇"}, // OSC 52: a clipboard write
		{"\x1b]52;c;ZWNobw==\x1b\\", "␛]52;c;ZWNobw==␛\\"},
		{"a\u009bb \u009d0;x\u009c", "a⟨U+009B⟩b ⟨U+009D⟩0;x⟨U+009C⟩"}, // C1 CSI, OSC, ST
		{"tab\there", "tab    here"},
		{"cr\rlf\n", "cr␍lf\n"},
		{"del\x7f nul\x00", "del␡ nul␀"},
		{"line\u2028sep\u2029par", "line\nsep\npar"},
		// Bidi controls.
		{"rtl \u202eevil", "rtl ⟨U+202E⟩evil"},
		{"\u202a\u202b\u202c\u202d", "⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩"},
		{"\u2066x\u2069 \u2067\u2068", "⟨U+2066⟩x⟨U+2069⟩ ⟨U+2067⟩⟨U+2068⟩"},
		{"\u200eLRM \u200fRLM \u061cALM", "⟨U+200E⟩LRM ⟨U+200F⟩RLM ⟨U+061C⟩ALM"},
		// Zero-width and other invisible characters.
		{"ad\u200bmin", "ad⟨U+200B⟩min"},
		{"\ufeffbom \u2060wj \u00adshy \u2062x", "⟨U+FEFF⟩bom ⟨U+2060⟩wj ⟨U+00AD⟩shy ⟨U+2062⟩x"},
		{"a\u200db a\u200cb", "a⟨U+200D⟩b a⟨U+200C⟩b"}, // joiners between Latin letters
		{"\u3164\u115f", "⟨U+3164⟩⟨U+115F⟩"},           // Hangul fillers draw blank
		// ZWJ in emoji sequences is text.
		{"\U0001F469\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466", "\U0001F469\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"},
		{"emoji \U0001F469\u200d\U0001F4BB and \u00e9 (e\u0301)", "emoji \U0001F469\u200d\U0001F4BB and \u00e9 (e\u0301)"},
		{"\U0001F469\U0001F3FD\u200d\U0001F4BB", "\U0001F469\U0001F3FD\u200d\U0001F4BB"}, // with a skin tone
		{"\u2764\ufe0f\u200d\U0001F525", "\u2764\ufe0f\u200d\U0001F525"},                 // after a variation selector
		{"\U0001F3F3\ufe0f\u200d\U0001F308", "\U0001F3F3\ufe0f\u200d\U0001F308"},
		{"\U0001F469\u200d", "\U0001F469⟨U+200D⟩"}, // a joiner that joins nothing
		{"\u200d\U0001F469", "⟨U+200D⟩\U0001F469"},
		{"\U0001F469\u200d\u200d\U0001F469", "\U0001F469⟨U+200D⟩⟨U+200D⟩\U0001F469"},
		{"x\u200d\U0001F469", "x⟨U+200D⟩\U0001F469"},
		// ZWNJ and ZWJ in scripts that use them.
		{"\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"},   // Persian
		{"\u0915\u094d\u200d\u0937 \u0915\u094d\u200c\u0937", "\u0915\u094d\u200d\u0937 \u0915\u094d\u200c\u0937"}, // Devanagari
		{"\u0645\u200c", "\u0645⟨U+200C⟩"},
		{"\u0645\u200ca", "\u0645⟨U+200C⟩a"},
		// One variation selector after a character; not a run of them.
		{"\u2764\ufe0f 1\ufe0f\u20e3 \u845b\U000E0100", "\u2764\ufe0f 1\ufe0f\u20e3 \u845b\U000E0100"},
		{"\U0001F600\ufe00\ufe01\ufe02", "\U0001F600\ufe00⟨U+FE01⟩⟨U+FE02⟩"},
		{"\ufe0f", "⟨U+FE0F⟩"},
		{"\n\ufe0f", "\n⟨U+FE0F⟩"},
		// Tags: a regional flag, and nothing else.
		{"\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"},
		{"hi\U000E0041\U000E0042\U000E007F", "hi⟨U+E0041⟩⟨U+E0042⟩⟨U+E007F⟩"}, // text hidden in tags
		{"\U0001F3F4\U000E007F", "\U0001F3F4⟨U+E007F⟩"},
		{"\U0001F3F4\U000E0067\U000E0062", "\U0001F3F4⟨U+E0067⟩⟨U+E0062⟩"},
		// Bytes that are not UTF-8, as pi reads them: one U+FFFD a sequence.
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"a\xe2\x82b \xf0\x9f\x98", "a\uFFFDb \uFFFD"},
		{"\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"},
		{"\uFFFD kept", "\uFFFD kept"},
		{"\xe2\x82\xf0\x9f\x98\x80", "\uFFFD\U0001F600"},
	}
	for _, c := range cases {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%+q) = %+q, want %+q", c.in, got, c.want)
		}
	}
}

func TestInline(t *testing.T) {
	cases := []struct{ in, want string }{
		{"019cadc6-9a80", "019cadc6-9a80"},
		{"a\nb\tc\r", "a␊b␉c␍"},
		{"x\u2028y", "x⟨U+2028⟩y"},
		{"/tmp/\x1b]52;c;aGk=\x07.jsonl", "/tmp/␛]52;c;aGk=␇.jsonl"},
		{"claude\u202e5-tennos", "claude⟨U+202E⟩5-tennos"},
		{"/home/d\u00e9v/\u591a\u8bed\u8a00 project", "/home/d\u00e9v/\u591a\u8bed\u8a00 project"},
	}
	for _, c := range cases {
		if got := Inline(c.in); got != c.want {
			t.Errorf("Inline(%+q) = %+q, want %+q", c.in, got, c.want)
		}
	}
}

func TestLineAndFlat(t *testing.T) {
	if got := Line("  a\n b\tc  \x1b "); got != "a b c ␛" {
		t.Errorf("Line = %q", got)
	}
	if got := Flat(" a\nb  c\u202e"); got != " a b  c⟨U+202E⟩" {
		t.Errorf("Flat = %q", got)
	}
}

// forbidden reports the first rune of out that must never reach a
// terminal from session text, or -1.
func forbidden(out string, inline bool) rune {
	for _, r := range out {
		switch {
		case r < 0x20 && (r != '\n' || inline), r == 0x7F, r >= 0x80 && r <= 0x9F,
			r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C,
			r == 0x200B, r == 0xFEFF, r == 0x2060, r == 0x2028, r == 0x2029:
			return r
		}
	}
	return -1
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b]52;c;aGk=\x07", "\u202e", "\U0001F469\u200d\U0001F4BB", "a\u200db",
		"\U0001F3F4\U000E0067\U000E007F", "\U0001F600\ufe00\ufe01", "\xe2\x82\u200d", "\u0645\u200c\u0645", "\t\n\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, inline := range []bool{false, true} {
			out := clean(s, inline)
			if !utf8.ValidString(out) {
				t.Fatalf("%+q: invalid UTF-8 %+q", s, out)
			}
			if r := forbidden(out, inline); r >= 0 {
				t.Fatalf("%+q (inline %v): %U reaches the output %+q", s, inline, r, out)
			}
			if again := clean(out, inline); again != out {
				t.Fatalf("%+q: not stable: %+q, then %+q", s, out, again)
			}
			if strings.Contains(out, "\x1b") {
				t.Fatal("ESC")
			}
		}
	})
}

func BenchmarkText(b *testing.B) {
	s := strings.Repeat("The nav links wrap under the logo — こんにちは, \U0001F469\u200d\U0001F4BB. ", 20)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Text(s)
	}
}

func TestOutputDropsOnlySGR(t *testing.T) {
	cases := map[string]string{
		"\x1b[1;31merror\x1b[0m: x":   "error: x",
		"\x1b[38:2:255:0:0mred\x1b[m": "red",
		"\x1b[2Jclear":                "␛[2Jclear",
		"\x1b]0;title\x07x":           "␛]0;title␇x",
		"\x1b[31":                     "␛[31",
		"a\x1b[1m\x1b[2Kb":            "a␛[2Kb",
		"\x1b[\x1b[32mgreen":          "␛[green",
		"plain":                       "plain",
	}
	for in, want := range cases {
		if got := Output(in); got != want {
			t.Errorf("Output(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every C1 control (U+0080 to U+009F, which a terminal may obey as ESC and
// a letter: U+009B is CSI) and every bidi control, alone or between
// letters, is shown as its code by each way of printing session text.
func TestEveryC1AndBidiControlIsShown(t *testing.T) {
	var controls []rune
	for r := rune(0x80); r <= 0x9F; r++ {
		controls = append(controls, r)
	}
	controls = append(controls, 0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069)
	for _, r := range controls {
		code := fmt.Sprintf("⟨U+%04X⟩", r)
		for _, s := range []string{string(r), "a" + string(r) + "b", "\u0645" + string(r) + "\u0645", "\U0001F469" + string(r) + "\U0001F4BB"} {
			for name, f := range map[string]func(string) string{"Text": Text, "Inline": Inline, "Line": Line, "Flat": Flat, "Output": Output} {
				if out := f(s); !strings.Contains(out, code) || strings.ContainsRune(out, r) {
					t.Errorf("%s(%+q) = %+q", name, s, out)
				}
			}
		}
	}
}
