package cli

import (
	"io"
	"unicode/utf8"
)

// terminalJSON is standard output for a command's JSON when it is a
// terminal. JSON strings carry session text as it is: C1 controls (U+009B
// is a CSI some terminals obey), bidi controls that reorder the line
// around them, line and paragraph separators. Into a pipe or a file skein
// writes the bytes as encoding/json or pi writes them; on a terminal each
// such character is written as a \uXXXX escape instead, which is still
// valid JSON with the same values.
//
// No state is needed to find the strings: in valid JSON these characters
// can stand only inside a string, never after a backslash (an escape is a
// backslash and an ASCII letter or quote), so each is rewritten wherever
// it is. Bytes that are not UTF-8 become \ufffd, the value a JSON decoder
// gives them. The only state kept is the start of a character that a
// write cut in two, until the next write completes it.
type terminalJSON struct {
	w    io.Writer
	tail []byte
	buf  []byte
}

func (j *terminalJSON) Write(p []byte) (int, error) {
	in := p
	if len(j.tail) > 0 {
		in = append(j.tail, p...)
		j.tail = nil
	}
	out := j.buf[:0]
	start := 0 // the first byte not yet copied to out
	for i := 0; i < len(in); {
		c := in[i]
		if c >= 0x20 && c < 0x7F || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			if !utf8.FullRune(in[i:]) {
				j.tail = append(j.tail, in[i:]...)
				break
			}
			r, size = utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && size == 1 {
				r = 0xFFFD
			} else if !escapedOnTerminal(r) {
				i += size
				continue
			}
		}
		out = append(out, in[start:i]...)
		out = appendUnicodeEscape(out, r)
		i += size
		start = i
	}
	end := len(in) - len(j.tail)
	if start == 0 && end == len(in) {
		out = in // nothing rewritten
	} else {
		out = append(out, in[start:end]...)
		j.buf = out[:0]
	}
	if _, err := j.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the start of a character left at the end, which no write
// completed: bytes that are not UTF-8.
func (j *terminalJSON) Flush() error {
	if len(j.tail) == 0 {
		return nil
	}
	out := []byte{}
	for range j.tail {
		out = appendUnicodeEscape(out, 0xFFFD)
	}
	j.tail = nil
	_, err := j.w.Write(out)
	return err
}

// escapedOnTerminal reports whether r is written \uXXXX on a terminal: C1
// controls, bidi marks, embeddings, overrides and isolates, and the line
// and paragraph separators.
func escapedOnTerminal(r rune) bool {
	return r >= 0x80 && r <= 0x9F || r == 0x061C || r == 0x200E || r == 0x200F ||
		r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029
}

func appendUnicodeEscape(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
}

// wantsJSON reports whether a command's arguments ask for JSON on standard
// output: --json, or export's --format json. Flags are read as parseArgs
// reads them, up to "--".
func wantsJSON(argv []string) bool {
	for i, a := range argv {
		switch a {
		case "--":
			return false
		case "--json", "-json", "--format=json", "-format=json":
			return true
		case "--format", "-format":
			if i+1 < len(argv) && argv[i+1] == "json" {
				return true
			}
		}
	}
	return false
}
