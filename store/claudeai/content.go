package claudeai

import (
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsjson"
)

// block is one element of a message's content, its members read in one pass.
type block struct {
	raw      []byte
	k        int    // its place in the content
	str      string // the element itself when it is a string
	isStr    bool
	typ      string
	start    int64 // start_timestamp
	hasStart bool
	// Raw members.
	text, thinking, id, name, input, toolUseID, content, isError []byte
	other                                                        bool // it has a member besides these whose value is not trivial
}

// blocksOf are a message's content as blocks: an array's elements, a
// string or an object as one block, nothing for null.
func blocksOf(content []byte) []block {
	var raws [][]byte
	switch {
	case isNull(content):
	case isArray(content):
		elements(content, func(el []byte) { raws = append(raws, el) })
	default:
		raws = [][]byte{content}
	}
	out := make([]block, len(raws))
	for k, raw := range raws {
		b := &out[k]
		b.raw, b.k = raw, k
		if s, ok := jscan.String(raw); ok {
			b.str, b.isStr = s, true
			continue
		}
		if !isObject(raw) {
			continue
		}
		f, other := pick(raw, "type", "start_timestamp", "stop_timestamp", "text", "thinking", "id", "name", "input", "tool_use_id", "content", "is_error")
		b.typ, _ = jscan.String(f[0])
		b.start, b.hasStart = parseTime(f[1])
		b.text, b.thinking, b.id, b.name, b.input, b.toolUseID, b.content, b.isError = f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10]
		b.other = other
	}
	return out
}

// notCarried is a leftovers filter for block b: all members but its type,
// its times (the entries' own times stand for them) and those named that
// are strings (a value of another type is not carried, so it is kept).
func (b *block) notCarried(names ...string) func(string) bool {
	return func(name string) bool {
		if name == "type" || name == "start_timestamp" || name == "stop_timestamp" {
			return false
		}
		for _, n := range names {
			if name == n {
				_, ok := jscan.String(b.member(n))
				return !ok
			}
		}
		return true
	}
}

// member is one of the members blocksOf read.
func (b *block) member(name string) []byte {
	switch name {
	case "text":
		return b.text
	case "thinking":
		return b.thinking
	case "id":
		return b.id
	case "name":
		return b.name
	case "tool_use_id":
		return b.toolUseID
	}
	return nil
}

// hasText reports whether the blocks hold any text to show.
func hasText(blocks []block) bool {
	for i := range blocks {
		b := &blocks[i]
		if b.isStr && b.str != "" {
			return true
		}
		if b.typ == "text" {
			if s, _ := jscan.String(b.text); s != "" {
				return true
			}
		}
	}
	return false
}

const placeholder = "This block is not supported on your current device yet."

// placeholders are what claude.ai writes into a message's flattened text
// for a block it does not flatten.
var placeholders = []string{
	"```\n" + placeholder + "\n```",
	placeholder,
	"Viewing artifacts created via the Analysis Tool web feature preview isn’t yet supported on mobile.",
}

func onlyPlaceholders(s string) bool {
	for _, p := range placeholders {
		s = strings.ReplaceAll(s, p, "")
	}
	return strings.TrimSpace(s) == ""
}

// appendResultContent appends a tool result's content as pi's blocks: its
// text items as text, a string as one text block, anything else as the
// text of its JSON, so that nothing of it is lost.
func appendResultContent(dst, content []byte) []byte {
	dst = append(dst, '[')
	n := 0
	add := func(s string) {
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"type":"text","text":`...)
		dst = jsjson.AppendString(dst, lineBreaks(s))
		dst = append(dst, '}')
		n++
	}
	asJSON := func(v []byte) string { return string(jsjson.AppendValue(nil, v)) }
	switch {
	case isNull(content):
	case isArray(content):
		elements(content, func(item []byte) {
			if s, ok := jscan.String(item); ok {
				add(s)
				return
			}
			if isNull(item) {
				return
			}
			f, _ := pick(item, "type", "text")
			typ, _ := jscan.String(f[0])
			text, ok := jscan.String(f[1])
			if typ == "text" && ok && leftovers(item, skipping("type", "text", "uuid")) == nil {
				add(text)
				return
			}
			add(asJSON(item))
		})
	default:
		if s, ok := jscan.String(content); ok {
			add(s)
		} else {
			add(asJSON(content))
		}
	}
	return append(dst, ']')
}

// attachmentTexts are a message's attachments as text, their extracted
// content after their name, and its files as placeholders ("[file: NAME]"):
// the export holds no file's bytes.
func attachmentTexts(attachments, files, filesV2 []byte) []string {
	var out []string
	other := func(label string, v []byte) string {
		s, ok := jscan.String(v)
		if !ok {
			s = string(jsjson.AppendValue(nil, v))
		}
		return "[" + label + ": " + s + "]"
	}
	elements(attachments, func(a []byte) {
		switch {
		case isNull(a):
		case isObject(a):
			f, _ := pick(a, "file_name", "extracted_content")
			name, _ := jscan.String(f[0])
			label := "[attachment]"
			if name != "" {
				label = "[attachment: " + name + "]"
			}
			if content, _ := jscan.String(f[1]); content != "" {
				label += "\n" + content
			}
			out = append(out, label)
		default:
			out = append(out, other("attachment", a))
		}
	})
	seen := map[string]bool{}
	for _, list := range [][]byte{files, filesV2} {
		elements(list, func(file []byte) {
			switch {
			case isNull(file):
			case isObject(file):
				f, _ := pick(file, "file_name", "file_uuid")
				name, _ := jscan.String(f[0])
				id, _ := jscan.String(f[1])
				if id == "" {
					id = "name:" + name
				}
				if seen[id] {
					return // files_v2 repeats files
				}
				seen[id] = true
				if name == "" {
					out = append(out, "[file]")
				} else {
					out = append(out, "[file: "+name+"]")
				}
			default:
				out = append(out, other("file", file))
			}
		})
	}
	return out
}

// stopReason is pi's stopReason for claude.ai's stop_reason; mapped is
// false when there is one pi has no name for (it is then kept as metadata).
func stopReason(raw []byte) (stop string, mapped bool) {
	s, ok := jscan.String(raw)
	if !ok {
		return "", isNull(raw)
	}
	switch s {
	case "end_turn", "stop_sequence":
		return "stop", true
	case "max_tokens":
		return "length", true
	case "user_canceled", "canceled", "cancelled":
		return "aborted", true
	case "tool_use":
		return "toolUse", true
	case "error":
		return "error", true
	}
	return "", s == ""
}
