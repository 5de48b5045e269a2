package transcript

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"skein/internal/sanitize"
)

// Sanitize makes untrusted session text safe to print: escape sequences,
// control characters, bidi controls and invisible characters are shown as
// placeholders (see internal/sanitize); newlines are kept, tabs become
// spaces and invalid UTF-8 becomes U+FFFD as pi reads it.
func Sanitize(s string) string { return sanitize.Text(s) }

// OneLine sanitizes s and folds it onto one line, for previews and titles.
func OneLine(s string) string { return sanitize.Line(s) }

// Flat sanitizes s and puts it on one line without trimming it: for pieces
// of a line whose spacing matters.
func Flat(s string) string { return sanitize.Flat(s) }

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
// Pad is s padded with spaces to display width w: a column of a text
// table, aligned whatever its characters' widths (CJK, emoji, ZWJ
// sequences).
func Pad(s string, w int) string {
	if n := w - ansi.StringWidth(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// TruncateStart cuts s to w cells keeping its end, with "…" in front where
// it cut: a path's last folders say which project it is, its first ones
// rarely do.
func TruncateStart(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := ansi.StringWidth(s)
	if n <= w {
		return s
	}
	return ansi.TruncateLeft(s, n-w+1, "…")
}

// RelTime says how long ago ms was: "now", "5m ago", "3h ago", "12d ago",
// then the date.
func RelTime(now time.Time, ms float64) string {
	if math.IsNaN(ms) {
		return "?"
	}
	d := now.Sub(time.UnixMilli(int64(ms)))
	switch {
	case d < 0:
		// A time still to come (a clock set wrong, a file from elsewhere)
		// is no "now": its date says what it is.
		return time.UnixMilli(int64(ms)).Format("2006-01-02")
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

// Count is n and the noun for it, singular for one: "1 branch", "2 branches".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

var (
	plainTag      = regexp.MustCompile(`</?[A-Za-z][A-Za-z0-9_-]*(\s[^<>]*)?/?>`)
	plainHeading  = regexp.MustCompile(`(?m)^\s{0,3}#{1,6}\s+`)
	plainEmphasis = regexp.MustCompile("(\\*\\*|__|`+)")
)

// Plain is a message's text with its markup left out, for a line of
// preview: tags (<command-message>, <environment_context>) without their
// brackets, headings without their #, bold and code without their marks.
// The words stay.
func Plain(s string) string {
	s = plainTag.ReplaceAllString(s, " ")
	s = plainHeading.ReplaceAllString(s, "")
	s = plainEmphasis.ReplaceAllString(s, "")
	return strings.Join(strings.Fields(s), " ")
}
