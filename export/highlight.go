package export

// The fences of a message's text and the highlighter of the code in them.

import (
	"strings"
)

// fenceScanner finds the lines of a text that may open or close a fence:
// those that start, after up to three spaces, with ``` or ~~~. Each text
// is searched once, whatever the number of fences.
type fenceScanner struct {
	text                 string
	ticks, tildes        int // the next ``` and ~~~ at or after searched, -1 for none
	searchedT, searchedD int // 1 + where each was last searched from
}

// next is the start of the first such line at or after from, which is a
// line's start, or -1.
func (sc *fenceScanner) next(from int) int {
	t := sc.text
	for from < len(t) {
		j := min(sc.find(from, "```", &sc.ticks, &sc.searchedT), sc.find(from, "~~~", &sc.tildes, &sc.searchedD))
		if j == len(t) {
			return -1
		}
		ls := from + strings.LastIndexByte(t[from:j], '\n') + 1
		if j-ls <= 3 && strings.Trim(t[ls:j], " ") == "" {
			return ls
		}
		from = lineEnd(t, j) + 1
	}
	return -1
}

// find is the index of the first run at or after from, len(text) for
// none, searching again only past the last one found.
func (sc *fenceScanner) find(from int, run string, at, searched *int) int {
	if *searched == 0 || *at >= 0 && *at < from {
		*searched = from + 1
		*at = -1
		if k := strings.Index(sc.text[from:], run); k >= 0 {
			*at = from + k
		}
	}
	if *at < 0 {
		return len(sc.text)
	}
	return *at
}

// lineEnd is the index of the newline ending the line at i, or len(s).
func lineEnd(s string, i int) int {
	if e := strings.IndexByte(s[i:], '\n'); e >= 0 {
		return i + e
	}
	return len(s)
}

// A fence is a fenced code block found in a text: its opening line
// text[open:openEnd], its code text[body:bodyEnd] and, when it is closed,
// its closing line text[bodyEnd:after] (bodyEnd and after are the text's
// end when it is not).
type fence struct {
	open, openEnd, body, bodyEnd, after int
	lang                                string
	closed                              bool
}

// nextFence is the first fence that opens at or after from, a line's
// start; false when there is none.
func (sc *fenceScanner) nextFence(from int) (fence, bool) {
	t := sc.text
	for i := sc.next(from); i >= 0; i = sc.next(i) {
		e := lineEnd(t, i)
		fc, fn, lang, ok := fenceOpen(t[i:e])
		if !ok {
			i = e + 1
			continue
		}
		f := fence{open: i, openEnd: e, body: min(e+1, len(t)), bodyEnd: len(t), after: len(t), lang: lang}
		for j := sc.next(f.body); j >= 0; j = sc.next(j) {
			le := lineEnd(t, j)
			if fenceClose(t[j:le], fc, fn) {
				f.bodyEnd, f.after, f.closed = j, min(le+1, len(t)), true
				break
			}
			j = le + 1
		}
		return f, true
	}
	return fence{}, false
}

// fenceOpen reads an opening code fence: up to three spaces, three or
// more backticks or tildes, an info string whose first word names the
// language (a backtick fence's info holds no backtick).
func fenceOpen(line string) (c byte, n int, lang string, ok bool) {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i >= len(line) || line[i] != '`' && line[i] != '~' {
		return 0, 0, "", false
	}
	c = line[i]
	for i+n < len(line) && line[i+n] == c {
		n++
	}
	if n < 3 {
		return 0, 0, "", false
	}
	info := strings.TrimSpace(line[i+n:])
	if c == '`' && strings.IndexByte(info, '`') >= 0 {
		return 0, 0, "", false
	}
	if f := strings.Fields(info); len(f) > 0 {
		lang = strings.ToLower(f[0])
	}
	return c, n, shorten(lang, 24), true
}

// fenceClose reports whether line closes a fence of n characters c.
func fenceClose(line string, c byte, n int) bool {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	k := 0
	for i+k < len(line) && line[i+k] == c {
		k++
	}
	return k >= n && strings.TrimSpace(line[i+k:]) == ""
}

// Comment styles of the languages the highlighter knows; a language it
// does not know gets // and /* */ and # (after a space or at a line's
// start).
var (
	hashLangs  = words("python py sh bash shell zsh fish console ruby rb yaml yml toml perl pl r makefile make dockerfile conf ini nix elixir ex exs powershell ps1 tcl cmake gitignore")
	slashLangs = words("go golang js javascript mjs cjs ts typescript tsx jsx c h cpp c++ cc hpp cxx java kotlin kt swift rust rs cs csharp scala php dart zig json jsonc json5 proto groovy gradle css scss less sass")
	dashLangs  = words("sql lua haskell hs elm ada")
	keywords   = words(`break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var
function let new this class extends super typeof instanceof delete void yield async await try catch finally throw export from of in do while with static public private protected readonly enum implements abstract declare namespace module require
def elif except lambda pass raise global nonlocal assert del is not and or None True False self as print
fn impl mut pub use mod crate trait where match loop unsafe dyn ref move Self
true false null nil undefined
int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 float float32 float64 double long char string bool byte rune error any
then fi esac done local echo
SELECT FROM WHERE INSERT INTO UPDATE DELETE CREATE TABLE JOIN LEFT RIGHT INNER OUTER ON GROUP BY ORDER HAVING LIMIT AND OR NOT NULL AS VALUES SET`)
)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// highlight writes code escaped, its comments, strings, numbers and
// keywords in spans.
func (w *htmlWriter) highlight(lang, code string) {
	slash, hash, dash := true, true, false
	switch {
	case hashLangs[lang]:
		slash = false
	case slashLangs[lang]:
		hash = false
	case dashLangs[lang]:
		slash, hash, dash = false, false, true
	}
	last := 0
	span := func(from, to int, class string) {
		w.esc(code[last:from])
		w.raw("<span class=\"")
		w.raw(class)
		w.raw("\">")
		w.esc(code[from:to])
		w.raw("</span>")
		last = to
	}
	for i := 0; i < len(code); {
		c := code[i]
		var next byte
		if i+1 < len(code) {
			next = code[i+1]
		}
		switch {
		case slash && c == '/' && next == '/', dash && c == '-' && next == '-',
			hash && c == '#' && (i == 0 || code[i-1] == ' ' || code[i-1] == '\t' || code[i-1] == '\n'):
			e := lineEnd(code, i)
			span(i, e, "c")
			i = e
		case slash && c == '/' && next == '*':
			e := len(code)
			if k := strings.Index(code[i+2:], "*/"); k >= 0 {
				e = i + 2 + k + 2
			}
			span(i, e, "c")
			i = e
		case c == '"' || c == '\'' || c == '`':
			e := stringEnd(code, i)
			if e < 0 {
				i++
				continue
			}
			span(i, e, "s")
			i = e
		case c >= '0' && c <= '9':
			e := i
			for e < len(code) && (isIdent(code[e]) || code[e] == '.') {
				e++
			}
			span(i, e, "n")
			i = e
		case isIdent(c):
			e := i
			for e < len(code) && isIdent(code[e]) {
				e++
			}
			if keywords[code[i:e]] {
				span(i, e, "k")
			}
			i = e
		default:
			i++
		}
	}
	w.esc(code[last:])
}

func isIdent(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// stringEnd is the end of the string literal opening at i (past its
// closing quote), or -1 when it does not close: " and ' on their line,
// ` anywhere after.
func stringEnd(code string, i int) int {
	q := code[i]
	for j := i + 1; j < len(code); j++ {
		switch code[j] {
		case '\\':
			if q != '`' {
				j++
			}
		case q:
			return j + 1
		case '\n':
			if q != '`' {
				return -1
			}
		}
	}
	return -1
}
