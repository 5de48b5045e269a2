// Package claudeai reads the claude.ai data export (Settings → Privacy →
// Export data): a zip whose conversations.json is a JSON array of
// conversations, or one conversation object saved on its own. Each
// conversation is written as the lines of a pi v3 session, so that it goes
// through the same reading as every other format; FORMAT.md says what the
// export holds and how each part of it is mapped.
package claudeai

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"

	"skein/internal/jscan"
	"skein/store"
)

// Conversation is one conversation of the export as the lines of a pi v3
// session (described above), its id the export's conversation uuid.
type Conversation = store.Conversation

// ErrNoConversation is returned when nothing in a file is a conversation.
var ErrNoConversation = errors.New("claudeai: no conversation (an array of objects with chat_messages, or one such object)")

// Open reads the file at path: an array of conversations, or one conversation object.
// The export's zip itself is read too (its conversations.json).
func Open(path string) ([]Conversation, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	convs, err := Read(data)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return convs, nil
}

// Read converts a file's bytes. A conversation that cannot be read is
// skipped, and so is everything after a syntax error in an array (a
// download cut short keeps the conversations before the cut); the error is
// ErrNoConversation only when nothing is a conversation.
func Read(data []byte) ([]Conversation, error) {
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		inner, err := fromZip(data)
		if err != nil {
			return nil, err
		}
		data = inner
	}
	data = bytes.TrimPrefix(data, jscan.BOM)
	i := jscan.SkipSpace(data, 0)
	if i >= len(data) || (data[i] != '[' && data[i] != '{') {
		return nil, ErrNoConversation
	}
	var out []Conversation
	var seen ids // header ids are unique across the file as well
	if data[i] == '{' {
		end, err := jscan.Skip(data, i)
		if err != nil {
			return nil, fmt.Errorf("claudeai: %w", err)
		}
		if c, ok := convert(data[i:end], &seen); ok {
			out = append(out, c)
		}
	}
	for j := jscan.SkipSpace(data, i+1); data[i] == '[' && j < len(data) && data[j] != ']'; {
		end, err := jscan.Skip(data, j)
		if err != nil {
			break // the rest is cut off or damaged
		}
		if c, ok := convert(data[jscan.SkipSpace(data, j):end], &seen); ok {
			out = append(out, c)
		}
		if j = jscan.SkipSpace(data, end); j >= len(data) || data[j] != ',' {
			break
		}
		j++
	}
	if len(out) == 0 {
		return nil, ErrNoConversation
	}
	return out, nil
}

// maxUnzipped bounds what is read out of an export's zip, against a zip
// bomb; real exports are a few hundred megabytes at most.
const maxUnzipped = 4 << 30

// fromZip returns the conversations.json of an export's zip (at its top,
// or the shallowest one).
func fromZip(data []byte) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("claudeai: zip: %w", err)
	}
	var best *zip.File
	for _, f := range zr.File {
		if path.Base(f.Name) != "conversations.json" {
			continue
		}
		if best == nil || len(f.Name) < len(best.Name) {
			best = f
		}
	}
	if best == nil {
		return nil, fmt.Errorf("claudeai: zip holds no conversations.json")
	}
	rc, err := best.Open()
	if err != nil {
		return nil, fmt.Errorf("claudeai: zip %s: %w", best.Name, err)
	}
	defer rc.Close()
	inner, err := io.ReadAll(io.LimitReader(rc, maxUnzipped))
	if err != nil {
		return nil, fmt.Errorf("claudeai: zip %s: %w", best.Name, err)
	}
	return inner, nil
}

// Detect reports whether the start of a file looks like a claude.ai export
// (an array whose first object, or an object, has "chat_messages"). A head
// that ends inside that object before chat_messages (a long summary comes
// first) is enough when it began with the members every export starts
// with: uuid, name, summary, created_at and updated_at.
func Detect(head []byte) bool {
	head = bytes.TrimPrefix(head, jscan.BOM)
	i := jscan.SkipSpace(head, 0)
	if i >= len(head) {
		return false
	}
	if head[i] == '[' {
		i = jscan.SkipSpace(head, i+1)
	}
	if i >= len(head) || head[i] != '{' {
		return false
	}
	return topKeys(head[i:])
}

// topKeys scans the object that head starts with, which may be cut off,
// for the members Detect looks for.
func topKeys(head []byte) bool {
	prefix := map[string]bool{"uuid": false, "name": false, "summary": false, "created_at": false, "updated_at": false}
	depth, expectKey := 0, false
	for i := 0; i < len(head); {
		switch c := head[i]; c {
		case '"':
			end := stringEnd(head, i)
			if end < 0 {
				i = len(head)
				continue
			}
			if depth == 1 && expectKey {
				j := jscan.SkipSpace(head, end)
				if j < len(head) && head[j] == ':' {
					name, _ := jscan.Unquote(head[i:end])
					if name == "chat_messages" {
						return true
					}
					if _, ok := prefix[name]; ok {
						prefix[name] = true
					}
				}
			}
			expectKey = false
			i = end
		case '{', '[':
			depth++
			expectKey = c == '{' && depth == 1
			i++
		case '}', ']':
			depth--
			if depth <= 0 {
				return false // the object ended without chat_messages
			}
			i++
		case ',':
			expectKey = depth == 1
			i++
		default:
			i++
		}
	}
	for _, seen := range prefix {
		if !seen {
			return false
		}
	}
	return true
}

// stringEnd is the index just past the string literal starting at s[i],
// or -1 when s ends inside it.
func stringEnd(s []byte, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}
