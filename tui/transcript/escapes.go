package transcript

import (
	"strings"

	"skein/internal/sanitize"
)

// What glamour writes is text and two kinds of escape sequence of its own:
// SGR (colours and bold, ESC [ ... m) and OSC 8 hyperlinks (ESC ] 8 ;
// params ; target, ended by BEL or ESC \). keepOwnEscapes passes those two
// and sanitizes everything else, so that whatever glamour or goldmark
// decoded from session text after skein's sanitizer ran is shown, not
// obeyed. A hyperlink passes only where its target is an http(s) address
// (clickable) and its text, as shown, is exactly that address.

type escKind uint8

const (
	escText  escKind = iota
	escSGR           // ESC [ digits ; : m
	escOpen          // OSC 8 with a target
	escClose         // OSC 8 without one
)

type escToken struct {
	kind   escKind
	s      string // the token's bytes
	target string // an opening hyperlink's target
}

func keepOwnEscapes(out string) string {
	if strings.IndexByte(out, 0x1b) < 0 {
		return sanitize.Text(out)
	}
	toks := escTokens(out)
	keep := keptLinks(toks)
	var b strings.Builder
	b.Grow(len(out))
	for i, t := range toks {
		switch t.kind {
		case escText:
			b.WriteString(sanitize.Text(t.s))
		case escSGR:
			b.WriteString(t.s)
		default:
			if keep[i] {
				b.WriteString(t.s)
			}
		}
	}
	return b.String()
}

// escTokens splits out into text, SGR sequences and OSC 8 sequences. An
// ESC that starts neither stays in the text, where sanitize shows it.
func escTokens(out string) []escToken {
	var toks []escToken
	text := 0 // where the current text began
	for i := 0; i < len(out); i++ {
		if out[i] != 0x1b {
			continue
		}
		t, n := escAt(out[i:])
		if n == 0 {
			continue
		}
		if text < i {
			toks = append(toks, escToken{kind: escText, s: out[text:i]})
		}
		toks = append(toks, t)
		i += n - 1
		text = i + 1
	}
	if text < len(out) {
		toks = append(toks, escToken{kind: escText, s: out[text:]})
	}
	return toks
}

// escAt reads the SGR or OSC 8 sequence s starts with, and its length; 0
// for neither.
func escAt(s string) (escToken, int) {
	if strings.HasPrefix(s, "\x1b[") {
		j := 2
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
			j++
		}
		if j < len(s) && s[j] == 'm' {
			return escToken{kind: escSGR, s: s[:j+1]}, j + 1
		}
		return escToken{}, 0
	}
	if !strings.HasPrefix(s, "\x1b]8;") {
		return escToken{}, 0
	}
	// Parameters and target: printable ASCII up to BEL or ESC \.
	j := 4
	for j < len(s) && s[j] >= 0x20 && s[j] < 0x7F {
		j++
	}
	end := 0
	switch {
	case j < len(s) && s[j] == 0x07:
		end = j + 1
	case j+1 < len(s) && s[j] == 0x1b && s[j+1] == '\\':
		end = j + 2
	default:
		return escToken{}, 0
	}
	_, target, ok := strings.Cut(s[4:j], ";")
	if !ok {
		return escToken{}, 0
	}
	if target == "" {
		return escToken{kind: escClose, s: "\x1b]8;;\x07"}, end
	}
	// Written again without parameters: glamour's are only an id.
	return escToken{kind: escOpen, s: "\x1b]8;;" + target + "\x07", target: target}, end
}

// keptLinks marks the hyperlink sequences to keep. A link is an opening
// sequence, text and a closing one; glamour closes and reopens a link
// around the indentation where it wraps it, so consecutive links to the
// same target with only spaces and colours between them are one, whose
// text is theirs joined without the white space.
func keptLinks(toks []escToken) []bool {
	keep := make([]bool, len(toks))
	for i := 0; i < len(toks); i++ {
		if toks[i].kind != escOpen {
			continue
		}
		target := toks[i].target
		var members []int
		var shown strings.Builder
		closed := false
		for j := i; ; {
			members = append(members, j)
			k := j + 1
			for k < len(toks) && (toks[k].kind == escText || toks[k].kind == escSGR) {
				if toks[k].kind == escText {
					shown.WriteString(toks[k].s)
				}
				k++
			}
			closed = k < len(toks) && toks[k].kind == escClose
			if !closed {
				break
			}
			members = append(members, k)
			m := k + 1
			for m < len(toks) && (toks[m].kind == escSGR || toks[m].kind == escText && strings.TrimSpace(toks[m].s) == "") {
				m++
			}
			if m < len(toks) && toks[m].kind == escOpen && toks[m].target == target {
				j = m
				continue
			}
			break
		}
		ok := closed && clickable(target) && strings.Join(strings.Fields(shown.String()), "") == target
		for _, m := range members {
			keep[m] = ok
		}
		i = members[len(members)-1]
	}
	return keep
}
