package transcript

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Sanitize makes untrusted session text safe to print: escape sequences
// (title changes, OSC 52 clipboard writes, screen clears), C0 and C1 control
// characters, DEL and bells never reach the terminal. Each is shown as a
// visible placeholder instead (the Unicode control pictures, or ⟨U+XXXX⟩).
// Newlines and tabs are kept (tabs as spaces); invalid UTF-8 becomes U+FFFD.
func Sanitize(s string) string {
	if isSafe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune('\uFFFD')
		case r == '\n' || r == 0x2028 || r == 0x2029:
			// Line and paragraph separators would otherwise vanish.
			b.WriteByte('\n')
		case r == '\t':
			b.WriteString("    ")
		case r < 0x20:
			b.WriteRune(0x2400 + r) // ␀ .. ␟, e.g. ␛ for ESC, ␇ for BEL
		case r == 0x7f:
			b.WriteRune('␡')
		case r >= 0x80 && r <= 0x9f:
			b.WriteString("⟨U+00")
			b.WriteByte("0123456789ABCDEF"[r>>4])
			b.WriteByte("0123456789ABCDEF"[r&15])
			b.WriteString("⟩")
		case isBidiControl(r):
			// Reordering controls can disguise what a line says.
			b.WriteString("⟨U+")
			b.WriteString(strings.ToUpper(hex4(r)))
			b.WriteString("⟩")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' || c == 0x7f || c >= 0x80 {
			if c >= 0x80 {
				return !needsRuneCheck(s[i:])
			}
			return false
		}
	}
	return true
}

// needsRuneCheck reports whether the non-ASCII rest of s holds anything
// Sanitize would change.
func needsRuneCheck(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || isBidiControl(r) || r == 0x2028 || r == 0x2029 {
			return true
		}
		i += size
	}
	return false
}

func isBidiControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}

func hex4(r rune) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[r>>12&15], digits[r>>8&15], digits[r>>4&15], digits[r&15]})
}

// OneLine sanitizes s and folds it onto one line, for previews and titles.
func OneLine(s string) string {
	s = Sanitize(s)
	s = strings.Join(strings.Fields(s), " ")
	return s
}

// Flat sanitizes s and puts it on one line without trimming it: for pieces
// of a line whose spacing matters.
func Flat(s string) string {
	s = Sanitize(s)
	if strings.IndexByte(s, '\n') >= 0 {
		s = strings.ReplaceAll(s, "\n", " ")
	}
	return s
}

// EscapeHTML keeps markdown's raw HTML visible: glamour drops tags such as
// <tag>, which in a session are usually text the user meant. Each < outside
// code spans and fenced blocks is escaped.
func EscapeHTML(md string) string {
	if strings.IndexByte(md, '<') < 0 {
		return md
	}
	var b strings.Builder
	fence := ""
	for i, line := range strings.Split(md, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		trimmed := strings.TrimLeft(line, " ")
		if f := fenceOf(trimmed); f != "" && (fence == "" || strings.HasPrefix(trimmed, fence)) {
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
			b.WriteString(line)
			continue
		}
		if fence != "" || strings.HasPrefix(line, "    ") {
			b.WriteString(line)
			continue
		}
		inCode := 0 // the length of the open code span's backtick run
		for j := 0; j < len(line); j++ {
			c := line[j]
			switch {
			case c == '`':
				n := 1
				for j+n < len(line) && line[j+n] == '`' {
					n++
				}
				if inCode == 0 {
					inCode = n
				} else if inCode == n {
					inCode = 0
				}
				b.WriteString(line[j : j+n])
				j += n - 1
			case c == '\\' && j+1 < len(line):
				b.WriteString(line[j : j+2])
				j++
			case c == '<' && inCode == 0:
				b.WriteString("\\<")
			default:
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}

func fenceOf(line string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(line, f) {
			return f
		}
	}
	return ""
}

// ShortPath writes a path under home with ~.
func ShortPath(p, home string) string {
	if home != "" && (p == home || strings.HasPrefix(p, home+"/")) {
		return "~" + p[len(home):]
	}
	return p
}

// Truncate cuts text to width w (terminal cells) with an ellipsis.
func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// RelTime says how long ago ms was: "now", "5m ago", "3h ago", "12d ago",
// then the date.
func RelTime(now time.Time, ms float64) string {
	if math.IsNaN(ms) {
		return "?"
	}
	d := now.Sub(time.UnixMilli(int64(ms)))
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 60*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return time.UnixMilli(int64(ms)).Format("2006-01-02")
}
