// Package sanitize makes untrusted session text safe to print on a
// terminal. A session file holds text from models, tools and whoever wrote
// the file: an escape sequence in it could set the window title, write the
// clipboard (OSC 52), clear the screen or hide what follows, and bidi
// controls and zero-width characters could make a line read other than it
// is. Each such character is shown as a visible placeholder instead: the
// Unicode control pictures (␛ for ESC, ␇ for BEL) or ⟨U+XXXX⟩.
//
// Some of these characters are kept where text needs them: U+200D between
// emoji (a family of four is four people joined by three ZWJs), U+200C and
// U+200D between letters of scripts that join or form conjuncts (ZWNJ is
// part of Persian spelling; Indic scripts use both after a virama), one
// variation selector after a character (the red heart, a keycap), and the
// tags of a regional flag (U+1F3F4, tags, U+E007F). Anywhere else they are
// shown: a zero-width joiner between Latin letters, or a run of variation
// selectors that could carry hidden data, is not text anyone meant to read
// as nothing.
package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"skein/internal/utf8js"
)

// Text makes multi-line text safe: newlines are kept (and U+2028 and
// U+2029 become newlines, which they are), tabs become four spaces, and
// bytes that are not UTF-8 become U+FFFD as pi reads them.
func Text(s string) string { return clean(s, false) }

// Output is Text for a program's output (a tool's result, a command's
// output): its SGR colour sequences (ESC [, then only digits, ; or :,
// then m) are dropped, since they carry only colour; every other control
// stays a visible placeholder.
func Output(s string) string { return Text(DropSGR(s)) }

// DropSGR removes the SGR sequences of s and nothing else.
func DropSGR(s string) string {
	i := strings.Index(s, "\x1b[")
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		j := i + 2
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
			j++
		}
		if j < len(s) && s[j] == 'm' {
			b.WriteString(s[:i])
			s = s[j+1:]
		} else {
			b.WriteString(s[:i+2])
			s = s[i+2:]
		}
		i = strings.Index(s, "\x1b[")
	}
	b.WriteString(s)
	return b.String()
}

// Inline makes one value printed inside a line safe: an id, a role, a
// model name, a path. Newlines and tabs are shown as ␊ and ␉ too, so that
// the value stays on its line and keeps its exact spelling.
func Inline(s string) string { return clean(s, true) }

// Line is Text folded onto one line, runs of white space as one space and
// none at the ends: for previews and titles.
func Line(s string) string { return strings.Join(strings.Fields(Text(s)), " ") }

// Flat is Text with newlines as spaces and the spacing kept: for pieces of
// a line whose spacing matters.
func Flat(s string) string {
	s = Text(s)
	if strings.IndexByte(s, '\n') >= 0 {
		s = strings.ReplaceAll(s, "\n", " ")
	}
	return s
}

func clean(s string, inline bool) string {
	if isSafe(s, inline) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	prev := rune(-1) // the rune before, as it was in s
	for i := 0; i < len(s); {
		r, size := utf8js.DecodeRuneInString(s[i:])
		if r == 0x1F3F4 { // a black flag, perhaps with the tags of a region
			if n := flagTags(s[i+size:]); n > 0 {
				b.WriteString(s[i : i+size+n])
				i += size + n
				prev = 0xE007F
				continue
			}
		}
		switch {
		case r == utf8.RuneError:
			b.WriteRune(utf8.RuneError) // one for each ill-formed sequence, or U+FFFD itself
		case (r == '\n' || r == 0x2028 || r == 0x2029) && !inline:
			b.WriteByte('\n') // the separators would otherwise vanish
		case r == '\t' && !inline:
			b.WriteString("    ")
		case r < 0x20:
			b.WriteRune(0x2400 + r) // ␀ .. ␟: ␛ for ESC, ␇ for BEL, ␊ for LF
		case r == 0x7F:
			b.WriteRune('␡')
		case r >= 0x80 && r <= 0x9F, r == 0x2028 || r == 0x2029, invisible(r) && !kept(prev, r, nextRune(s[i+size:])):
			writeCode(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		prev = r
		i += size
	}
	return b.String()
}

// nextRune is the first rune of s, -1 for none.
func nextRune(s string) rune {
	if s == "" {
		return -1
	}
	r, _ := utf8js.DecodeRuneInString(s)
	return r
}

// writeCode writes ⟨U+XXXX⟩, four to six hex digits.
func writeCode(b *strings.Builder, r rune) {
	const digits = "0123456789ABCDEF"
	b.WriteString("⟨U+")
	n := 4
	for r>>(4*n) != 0 {
		n++
	}
	for k := n - 1; k >= 0; k-- {
		b.WriteByte(digits[r>>(4*k)&15])
	}
	b.WriteString("⟩")
}

// isSafe reports whether clean would leave s as it is, without building
// anything: the common case, checked a byte at a time while s is ASCII.
func isSafe(s string, inline bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return !needsRuneCheck(s[i:])
		}
		if c < 0x20 && (c != '\n' || inline) || c == 0x7F {
			return false
		}
	}
	return true
}

// needsRuneCheck reports whether the non-ASCII rest of s holds anything
// clean might change.
func needsRuneCheck(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r < 0x20 || r == 0x7F || r >= 0x80 && r <= 0x9F ||
			r == 0x2028 || r == 0x2029 || invisible(r) {
			return true
		}
		i += size
	}
	return false
}

// invisible reports whether r is a format character that draws nothing (or
// reorders what is around it) and that text could use to hide or disguise:
// bidi controls, zero-width spaces and joiners, word joiners and invisible
// operators, fillers that render blank, variation selectors and tags.
func invisible(r rune) bool {
	switch {
	case r < 0xAD:
		return false
	case r == 0xAD, r == 0x34F, r == 0x61C, r == 0x115F, r == 0x1160, r == 0x17B4, r == 0x17B5,
		r == 0x180E, r == 0x3164, r == 0xFEFF, r == 0xFFA0:
		// Soft hyphen, combining grapheme joiner, Arabic letter mark,
		// Hangul fillers, Khmer inherent vowels, Mongolian vowel
		// separator, zero-width no-break space (the BOM).
		return true
	case r >= 0x200B && r <= 0x200F: // zero-width space, joiners, LRM, RLM
		return true
	case r >= 0x202A && r <= 0x202E: // bidi embeddings and overrides
		return true
	case r >= 0x2060 && r <= 0x206F: // word joiner, invisible operators, bidi isolates
		return true
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF: // variation selectors
		return true
	case r >= 0xFFF9 && r <= 0xFFFB: // interlinear annotation
		return true
	case r >= 0x1BCA0 && r <= 0x1BCA3, r >= 0x1D173 && r <= 0x1D17A: // shorthand and musical format controls
		return true
	case r >= 0xE0000 && r <= 0xE007F: // tags
		return true
	}
	return false
}

func isVariationSelector(r rune) bool {
	return r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF
}

// kept reports whether the invisible r between prev and next (-1 at either
// end of the text) is one that text needs there.
func kept(prev, r, next rune) bool {
	switch {
	case r == 0x200D && emojiBeforeJoiner(prev) && pictographic(next):
		return true
	case r == 0x200C || r == 0x200D:
		return joins(prev) && joins(next)
	case isVariationSelector(r):
		// One selector chooses how the character before it is drawn; a
		// run of them, or one after nothing visible, draws nothing.
		return prev >= 0x20 && !isVariationSelector(prev) && !invisible(prev) && !(prev >= 0x7F && prev <= 0x9F)
	}
	return false
}

// emojiBeforeJoiner reports whether r may end an emoji that a ZWJ joins to
// the next: a pictograph, a skin tone, the emoji variation selector.
func emojiBeforeJoiner(r rune) bool {
	return pictographic(r) || r >= 0x1F3FB && r <= 0x1F3FF || r == 0xFE0F
}

// pictographic approximates Unicode's Extended_Pictographic property (Go's
// unicode package has no emoji properties): the emoji blocks and the older
// symbols that have emoji forms.
func pictographic(r rune) bool {
	switch {
	case r < 0xA9:
		return false
	case r >= 0x1F000 && r <= 0x1FAFF:
		return !(r >= 0x1F1E6 && r <= 0x1F1FF) && !(r >= 0x1F3FB && r <= 0x1F3FF) // not regional indicators, skin tones
	case r >= 0x1FC00 && r <= 0x1FFFD, r >= 0x2600 && r <= 0x27BF:
		return true
	}
	for _, c := range []rune{0xA9, 0xAE, 0x203C, 0x2049, 0x2122, 0x2139, 0x2328, 0x2388, 0x23CF, 0x24C2,
		0x25B6, 0x25C0, 0x2B50, 0x2B55, 0x3030, 0x303D, 0x3297, 0x3299} {
		if r == c {
			return true
		}
	}
	for _, rg := range [][2]rune{{0x2194, 0x2199}, {0x21A9, 0x21AA}, {0x231A, 0x231B}, {0x23E9, 0x23F3},
		{0x23F8, 0x23FA}, {0x25AA, 0x25AB}, {0x25FB, 0x25FE}, {0x2934, 0x2935}, {0x2B05, 0x2B07}, {0x2B1B, 0x2B1C}} {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

// joiningScripts are the scripts whose text uses ZWJ and ZWNJ between
// letters: to join or not join Arabic letters (ZWNJ is part of Persian
// spelling), and to form or break conjuncts after a virama.
var joiningScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Nko, unicode.Mongolian,
	unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati, unicode.Oriya,
	unicode.Tamil, unicode.Telugu, unicode.Kannada, unicode.Malayalam, unicode.Sinhala,
	unicode.Myanmar, unicode.Khmer, unicode.Tibetan,
}

// joins reports whether r is a letter or mark of a joining script.
func joins(r rune) bool {
	return r > 0x5FF && (unicode.IsLetter(r) || unicode.IsMark(r)) && unicode.In(r, joiningScripts...)
}

// flagTags returns the length of the tags that follow a black flag to name
// a region (U+1F3F4, then tag letters, then U+E007F CANCEL TAG), or 0.
func flagTags(s string) int {
	n := 0
	for k := 0; k <= 32; k++ {
		r, size := utf8.DecodeRuneInString(s[n:])
		switch {
		case r == 0xE007F && k > 0:
			return n + size
		case r >= 0xE0020 && r <= 0xE007E:
			n += size
		default:
			return 0
		}
	}
	return 0
}

// ShellQuote quotes a path for a POSIX shell: in single quotes nothing is
// expanded ("$(...)" in a folder's name stays text when the line is pasted).
func ShellQuote(p string) string {
	if p != "" && strings.Trim(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:,@%") == "" {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}
