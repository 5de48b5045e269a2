// Package search finds text in sessions: its query language (words at word
// starts, "phrases", re:PATTERN, and role:, tool:, cwd:, agent: to narrow), the
// matching of one message's text, and the ranking of what matched (BM25).
package search

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"skein/store"
)

// Query is a parsed search.
type Query struct {
	Words   []string         // each must start a word, any case, any order
	Phrases [][]string       // each: its words one after another
	Regexps []*regexp.Regexp // each must match (RE2)
	Role    string           // role:ROLE; "system" also lets system prompts in
	Tool    string           // tool:NAME: a message with a call to, or a result of, that tool
	Cwd     string           // cwd:PATH: sessions of that folder (or under it)
	Agent   string           // agent:NAME: sessions of that agent (store.AgentIs)
}

// Parse reads a query: words, "quoted phrases", re:PATTERN (to the next
// space; quote it for one with spaces: "re:a b"), role:, tool:, cwd:,
// agent: (an agent's name or its format's: agent:codex, "agent:claude code").
func Parse(s string) (*Query, error) {
	q := &Query{}
	for _, tok := range tokens(s) {
		text, quoted := tok.text, tok.quoted
		switch {
		case strings.HasPrefix(text, "re:"):
			re, err := regexp.Compile(text[3:])
			if err != nil {
				return nil, errors.New("re: " + strings.TrimPrefix(err.Error(), "error parsing regexp: "))
			}
			if text[3:] == "" {
				return nil, errors.New("re: needs a pattern")
			}
			q.Regexps = append(q.Regexps, re)
		case !quoted && text == "role:":
			return nil, errors.New("role: needs a role (user, assistant, toolResult, system, custom, …)")
		case !quoted && text == "tool:":
			return nil, errors.New("tool: needs a tool's name (bash, read, …)")
		case !quoted && text == "cwd:":
			return nil, errors.New("cwd: needs a folder")
		case text == "agent:":
			return nil, errors.New("agent: needs an agent's name (pi, claude, codex, dhara)")
		case strings.HasPrefix(text, "agent:"):
			// Quoted too: "agent:claude code" names an agent with a space.
			q.Agent = text[6:]
		case !quoted && strings.HasPrefix(text, "role:"):
			q.Role = text[5:]
		case !quoted && strings.HasPrefix(text, "tool:"):
			q.Tool = text[5:]
		case !quoted && strings.HasPrefix(text, "cwd:"):
			q.Cwd = text[4:]
		case quoted:
			if ws := words(text); len(ws) > 1 {
				q.Phrases = append(q.Phrases, ws)
			} else if len(ws) == 1 {
				q.Words = append(q.Words, ws[0])
			}
		default:
			q.Words = append(q.Words, words(text)...)
		}
	}
	if len(q.Words)+len(q.Phrases)+len(q.Regexps) == 0 && q.Role == "" && q.Tool == "" && q.Cwd == "" && q.Agent == "" {
		return nil, errors.New("an empty query")
	}
	return q, nil
}

type token struct {
	text   string
	quoted bool
}

// tokens splits at spaces outside double quotes.
func tokens(s string) []token {
	var out []token
	var b strings.Builder
	quoted, inQuote := false, false
	flush := func() {
		if b.Len() > 0 || quoted {
			out = append(out, token{b.String(), quoted})
		}
		b.Reset()
		quoted = false
	}
	for _, r := range s {
		switch {
		case r == '"':
			if inQuote {
				inQuote = false
				flush()
			} else {
				flush()
				inQuote, quoted = true, true
			}
		case unicode.IsSpace(r) && !inQuote:
			flush()
		default:
			b.WriteRune(r)
		}
	}
	flush()
	return out
}

// words are s's words in lower case: runs of letters and digits.
func words(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) }) {
		out = append(out, strings.ToLower(f))
	}
	return out
}

// OfAgent reports whether the query lets in sessions of format's agent.
func (q *Query) OfAgent(format string) bool {
	return q.Agent == "" || store.AgentIs(store.ForFormat(store.Format(format)), q.Agent)
}

// OfCwd reports whether the query lets in sessions of the working folder
// cwd: cwd: names it or a folder above it.
func (q *Query) OfCwd(cwd string) bool {
	return q.Cwd == "" || cwd == q.Cwd || strings.HasPrefix(cwd, strings.TrimSuffix(q.Cwd, "/")+"/")
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// Fold is s in lower case with its byte offsets kept (a character whose
// lower case is another length stays as it is), so that a match found in
// Fold(s) is at the same place in s.
func Fold(s string) string {
	// Text already in lower case ASCII is its own fold, and ASCII is lowered
	// byte by byte: a search in a session folds every message it reads.
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch l := unicode.ToLower(r); {
		case r == utf8.RuneError && size == 1:
			b.WriteByte(s[i]) // a byte that is not UTF-8 stays one byte
		case utf8.RuneLen(l) == size:
			b.WriteRune(l)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// wordStart reports whether a word starts at byte i of s.
func wordStart(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return !isWordRune(r)
}

// Match finds the query's text terms in text: every word at a word start,
// every phrase, every pattern. It returns the byte ranges of all their
// occurrences, sorted, and whether all of them occur; tf counts the
// occurrences of each word and phrase (in that order), for ranking.
func (q *Query) Match(text string) (ranges [][2]int, tf []int, ok bool) {
	low := ""
	if len(q.Words)+len(q.Phrases) > 0 {
		low = Fold(text) // the patterns match the text as it is
	}
	ok = true
	for _, w := range q.Words {
		n := 0
		for i := 0; ; {
			k := strings.Index(low[i:], w)
			if k < 0 {
				break
			}
			at := i + k
			if wordStart(low, at) {
				ranges = append(ranges, [2]int{at, at + len(w)})
				n++
			}
			i = at + len(w)
		}
		tf = append(tf, n)
		ok = ok && n > 0
	}
	for _, p := range q.Phrases {
		n := 0
		for i := 0; ; {
			k := strings.Index(low[i:], p[0])
			if k < 0 {
				break
			}
			at := i + k
			if end, good := phraseAt(low, at, p); good && wordStart(low, at) {
				ranges = append(ranges, [2]int{at, end})
				n++
				i = end
				continue
			}
			i = at + len(p[0])
		}
		tf = append(tf, n)
		ok = ok && n > 0
	}
	for _, re := range q.Regexps {
		locs := re.FindAllStringIndex(text, -1)
		for _, l := range locs {
			ranges = append(ranges, [2]int{l[0], l[1]})
		}
		ok = ok && len(locs) > 0
	}
	sortRanges(ranges)
	return ranges, tf, ok
}

// phraseAt reports whether the phrase's words follow one another from at,
// with anything not a word between them, and where the last one ends.
func phraseAt(low string, at int, p []string) (int, bool) {
	i := at
	for k, w := range p {
		if !strings.HasPrefix(low[i:], w) {
			return 0, false
		}
		i += len(w)
		if k == len(p)-1 {
			// The last word may go on (a phrase's words start words).
			return i, true
		}
		// The word ends here, and the next starts after what is not a word.
		if r, _ := utf8.DecodeRuneInString(low[i:]); isWordRune(r) {
			return 0, false
		}
		for i < len(low) {
			r, size := utf8.DecodeRuneInString(low[i:])
			if isWordRune(r) {
				break
			}
			i += size
		}
	}
	return i, true
}

func sortRanges(r [][2]int) {
	slices.SortFunc(r, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
}
