// Package chatgpt reads ChatGPT's data export (Settings → Data controls →
// Export): conversations.json, or its parts conversations-000.json,
// conversations-001.json, ..., each a JSON array of conversations whose
// messages form a tree (the mapping). Each conversation is written as the
// lines of a pi v3 session, so that it goes through the same reading as
// every other format: every branch kept, the branch the user was on last,
// and whatever has no place in pi's messages kept in custom entries.
// FORMAT.md describes the format and the decisions taken.
package chatgpt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"skein/internal/jscan"
	"skein/store"
)

// Conversation is one conversation of the export as the lines of a pi v3
// session (described above), its id the export's conversation id.
type Conversation = store.Conversation

// Skipped is a conversation of an export that was not read, and why.
type Skipped struct {
	ID     string // "" when it names none
	Title  string
	Reason string
}

// partName is the name of one part of a split export.
var partName = regexp.MustCompile(`^conversations-([0-9]+)\.json$`)

// Open reads the export at path: one conversations.json, or, when path's name is
// conversations-NNN.json, every conversations-*.json beside it in order.
func Open(path string) ([]Conversation, error) {
	convs, _, err := OpenExport(path)
	return convs, err
}

// OpenExport is Open that also names the conversations it skipped.
func OpenExport(path string) ([]Conversation, []Skipped, error) {
	paths := []string{path}
	if partName.MatchString(filepath.Base(path)) {
		var err error
		if paths, err = parts(filepath.Dir(path)); err != nil {
			return nil, nil, err
		}
	}
	files := make([][]byte, 0, len(paths))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, fmt.Errorf("read ChatGPT export: %w", err)
		}
		files = append(files, data)
	}
	convs, skipped, err := ReadExport(files...)
	if err != nil {
		return nil, skipped, fmt.Errorf("%s: %w", path, err)
	}
	return convs, skipped, nil
}

// parts lists the conversations-*.json files of dir: those numbered first,
// by number, then any others by name.
func parts(dir string) ([]string, error) {
	names, err := filepath.Glob(filepath.Join(globEscape(dir), "conversations-*.json"))
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	num := func(p string) (string, bool) {
		m := partName.FindStringSubmatch(filepath.Base(p))
		if m == nil {
			return "", false
		}
		n := strings.TrimLeft(m[1], "0")
		return strings.Repeat("0", max(0, 32-len(n))) + n, true // compared as text
	}
	slices.SortStableFunc(names, func(a, b string) int {
		na, oka := num(a)
		nb, okb := num(b)
		switch {
		case oka != okb:
			if oka {
				return -1
			}
			return 1
		case na != nb:
			return strings.Compare(na, nb)
		}
		return strings.Compare(a, b)
	})
	return names, nil
}

// globEscape quotes the characters filepath.Glob would read in a folder's name.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) && filepath.Separator != '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Read converts the files' bytes (each a JSON array of conversations).
func Read(files ...[]byte) ([]Conversation, error) {
	convs, _, err := ReadExport(files...)
	return convs, err
}

// ReadExport is Read that also names the conversations it skipped: those
// without a mapping (a conversation whose messages the export does not
// hold, as ChatGPT's list of conversations gives them), and elements of the
// array that are not conversations. It fails when no conversation was
// read, with the skipped ones named.
func ReadExport(files ...[]byte) ([]Conversation, []Skipped, error) {
	var out []Conversation
	var skipped []Skipped
	var firstErr error
	for k, data := range files {
		n := 0
		err := readFile(data, func(raw json.RawMessage) {
			n++
			c, why := convert(raw)
			if why == "" {
				out = append(out, c)
				return
			}
			sk := Skipped{Reason: why}
			if conv := objectOf(raw); conv != nil {
				sk.ID = orDefault(str(conv["conversation_id"]), str(conv["id"]))
				sk.Title = cleanTitle(str(conv["title"]))
			} else {
				sk.Reason = fmt.Sprintf("element %d of file %d: %s", n, k+1, why)
			}
			skipped = append(skipped, sk)
		})
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("file %d: %w", k+1, err)
		}
	}
	if len(out) == 0 {
		msg := "not a ChatGPT export: no conversation (an object with a mapping) found"
		if len(skipped) > 0 {
			msg = fmt.Sprintf("no conversation with messages: %d skipped", len(skipped))
		}
		if firstErr != nil {
			return nil, skipped, fmt.Errorf("%s (%w)", msg, firstErr)
		}
		return nil, skipped, errors.New(msg)
	}
	return out, skipped, nil
}

// readFile calls fn with each element of the file's top-level array, up to
// the first that is not valid JSON (the conversations before it are kept),
// or with the file itself when it is one object (a conversation on its own).
func readFile(data []byte, fn func(json.RawMessage)) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	i := jscan.SkipSpace(data, 0)
	if i < len(data) && data[i] == '{' {
		if !jscan.Valid(data) {
			return errors.New("not valid JSON")
		}
		fn(data[i:])
		return nil
	}
	if i >= len(data) || data[i] != '[' {
		return errors.New("not a JSON array")
	}
	if i = jscan.SkipSpace(data, i+1); i < len(data) && data[i] == ']' {
		return nil
	}
	for {
		end, err := jscan.Skip(data, i)
		if err != nil {
			return err
		}
		fn(data[jscan.SkipSpace(data, i):end])
		if i = jscan.SkipSpace(data, end); i >= len(data) {
			return errors.New("the array does not end")
		}
		switch data[i] {
		case ',':
			i++
		case ']':
			return nil
		default:
			return fmt.Errorf("offset %d: expected ',' or ']'", i)
		}
	}
}

// Detect reports whether the start of a file looks like a ChatGPT export
// (an array whose first object has "mapping" and ("current_node" or "title")).
func Detect(head []byte) bool {
	s := scanner{b: bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))}
	if !s.byte('[') || !s.byte('{') {
		return false
	}
	var mapping, other bool
	for !s.byte('}') {
		key, ok := s.key()
		if !ok {
			break
		}
		switch key {
		case "mapping":
			s.space()
			if s.peek('n') {
				// null: a conversation whose messages the export does
				// not hold; its other members still tell.
				if !s.skip() {
					return other
				}
				mapping = true
				break
			}
			if !s.peek('{') {
				return false
			}
			mapping = true
			if mark := s.i; !s.skip() {
				// The head ends inside the mapping, before the members
				// that come after it: its first node tells.
				s.i = mark
				return other || s.looksLikeNode()
			}
		case "current_node", "title":
			other = true
			if !s.skip() {
				return mapping && other
			}
		default:
			if !s.skip() {
				return mapping && other
			}
		}
		if !s.byte(',') {
			break
		}
	}
	return mapping && other
}

// scanner reads the start of a JSON text, which may stop anywhere.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

func (s *scanner) peek(c byte) bool { return s.i < len(s.b) && s.b[s.i] == c }

// byte consumes c after any space.
func (s *scanner) byte(c byte) bool {
	s.space()
	if s.peek(c) {
		s.i++
		return true
	}
	return false
}

// key reads an object member's name and its colon.
func (s *scanner) key() (string, bool) {
	s.space()
	start := s.i
	if !s.peek('"') || !s.str() {
		return "", false
	}
	k, ok := stringOf(s.b[start:s.i])
	return k, ok && s.byte(':')
}

// str skips a string; false when it does not end.
func (s *scanner) str() bool {
	for s.i++; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '\\':
			s.i++
		case '"':
			s.i++
			return true
		}
	}
	return false
}

// skip skips one value; false when it does not end.
func (s *scanner) skip() bool {
	s.space()
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		return s.str()
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if !s.str() {
					return false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					s.i++
					return true
				}
			}
			s.i++
		}
		return false
	}
	for ; s.i < len(s.b); s.i++ { // a number or a literal
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return true
		}
	}
	return false
}

// looksLikeNode reports whether the mapping (at s.i) starts with a node
// that has a "message" and a "parent" or "children".
func (s *scanner) looksLikeNode() bool {
	if !s.byte('{') {
		return false
	}
	if _, ok := s.key(); !ok || !s.byte('{') {
		return false
	}
	var message, link bool
	for {
		key, ok := s.key()
		if !ok {
			break
		}
		switch key {
		case "message":
			message = true
		case "parent", "children":
			link = true
		}
		if !s.skip() || !s.byte(',') {
			break
		}
	}
	return message && link
}
