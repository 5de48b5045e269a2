package search

import (
	"unicode"
	"unicode/utf8"

	"skein/model"
)

// eachDoc calls fn with every entry a search looks at: messages, custom
// messages, branch summaries and compactions, as their messages.
func eachDoc(sess *model.Session, fn func(i int, e model.Entry, m *model.Message)) {
	for i := range sess.Len() {
		e := sess.Entry(i)
		if !isDoc(e.Kind) {
			continue
		}
		m := sess.EntryMessage(i)
		fn(i, e, &m)
	}
}

// toolNames are the tools a message calls or answers: what tool: matches.
func toolNames(m *model.Message) []string {
	var out []string
	if m.ToolName != "" {
		out = append(out, m.ToolName)
	}
	for _, c := range m.ToolCalls() {
		out = append(out, c.Name)
	}
	return out
}

// eachTerm calls fn with the words of text as the index keeps them: each
// run of word characters (letters, digits, _) of Fold(text). A query's word
// matches where it is a prefix of one of them. buf is scratch space, the
// term passed to fn is valid only during the call.
func eachTerm(text string, buf []byte, fn func(term []byte)) []byte {
	term := buf[:0]
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_':
				term = append(term, c)
			case 'A' <= c && c <= 'Z':
				term = append(term, c+'a'-'A')
			default:
				if len(term) > 0 {
					fn(term)
					term = term[:0]
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 || !isWordRune(r) {
			if len(term) > 0 {
				fn(term)
				term = term[:0]
			}
		} else if l := unicode.ToLower(r); utf8.RuneLen(l) == size {
			term = utf8.AppendRune(term, l)
		} else {
			term = append(term, text[i:i+size]...)
		}
		i += size
	}
	if len(term) > 0 {
		fn(term)
	}
	return term
}

// wordCount is the message length BM25 weighs: its white-space-separated
// fields (strings.Fields), counted without making them.
func wordCount(s string) int {
	n := 0
	in := false
	for i := 0; i < len(s); {
		c := s[i]
		var space bool
		if c < utf8.RuneSelf {
			space = asciiSpace[c] != 0
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
			i += size
		}
		if !space && !in {
			n++
		}
		in = !space
	}
	return n
}

var asciiSpace = [256]uint8{'\t': 1, '\n': 1, '\v': 1, '\f': 1, '\r': 1, ' ': 1}
