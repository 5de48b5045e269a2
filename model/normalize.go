package model

import (
	"fmt"
	"strings"

	"skein/model/jscan"
)

// ToolCall is a tool call normalized for display, as the first seed's
// normalize.ts does: toolCallId, then id; toolName, then name; input, then
// arguments (the first that is an object); defaults "", "", {}.
type ToolCall struct {
	ID    string
	Name  string
	Input []byte // raw JSON object
}

// NormalizeToolCall normalizes a raw tool-call block.
func NormalizeToolCall(block []byte) ToolCall {
	var tc ToolCall
	pick := func(keys ...string) string {
		for _, k := range keys {
			if s, ok := bstr(Member(block, k)); ok {
				return s
			}
		}
		return ""
	}
	tc.ID = pick("toolCallId", "id")
	tc.Name = pick("toolName", "name")
	for _, k := range []string{"input", "arguments"} {
		if v := Member(block, k); len(v) > 0 && v[0] == '{' {
			tc.Input = v
			break
		}
	}
	if tc.Input == nil {
		tc.Input = []byte("{}")
	}
	return tc
}

// IsToolCallBlock reports whether a content block is a tool call in any of
// the shapes writers use.
func IsToolCallBlock(block []byte) bool {
	switch String(Member(block, "type")) {
	case "toolCall", "tool_use", "tool_call", "function_call":
		return true
	}
	return false
}

// FormatToolCall is pi's one-line summary of a tool call in /tree:
// `[read: path:1-20]`, `[bash: cmd]`, or the name and truncated arguments.
func FormatToolCall(name string, args []byte, home string) string {
	arg := func(keys ...string) string {
		for _, k := range keys {
			v := Member(args, k)
			if jsTruthy(v) {
				return jsString(v)
			}
		}
		return ""
	}
	short := func(p string) string {
		if home != "" && strings.HasPrefix(p, home) {
			return "~" + p[len(home):]
		}
		return p
	}
	orDot := func(s string) string {
		if s == "" {
			return "."
		}
		return s
	}
	switch name {
	case "read":
		display := short(arg("path", "file_path"))
		offset, limit := Member(args, "offset"), Member(args, "limit")
		if offset != nil || limit != nil {
			start := 1.0
			if f, ok := jsNumberValue(offset); ok {
				start = f
			}
			display += ":" + FormatJSNumber(start)
			if f, ok := jsNumberValue(limit); ok {
				if end := start + f - 1; end != 0 {
					display += "-" + FormatJSNumber(end)
				}
			}
		}
		return "[read: " + display + "]"
	case "write", "edit":
		return "[" + name + ": " + short(arg("path", "file_path")) + "]"
	case "bash":
		raw := arg("command")
		cmd := sliceUTF16(TrimJS(strings.NewReplacer("\n", " ", "\t", " ").Replace(raw)), 50)
		if Utf16Len(raw) > 50 {
			cmd += "..."
		}
		return "[bash: " + cmd + "]"
	case "grep":
		return "[grep: /" + arg("pattern") + "/ in " + short(orDot(arg("path"))) + "]"
	case "find":
		return "[find: " + arg("pattern") + " in " + short(orDot(arg("path"))) + "]"
	case "ls":
		return "[ls: " + short(orDot(arg("path"))) + "]"
	}
	s := compactJSON(args)
	out := "[" + name + ": " + sliceUTF16(s, 40)
	if Utf16Len(s) > 40 {
		out += "..."
	}
	return out + "]"
}

// jsString is String(value) for a raw JSON value.
func jsString(raw []byte) string {
	if s, ok := bstr(raw); ok {
		return s
	}
	if f, ok := jsNumberValue(raw); ok {
		return FormatJSNumber(f)
	}
	if len(raw) > 0 && raw[0] == '{' {
		return "[object Object]"
	}
	return string(raw)
}

// compactJSON re-serializes a raw value without insignificant whitespace.
func compactJSON(raw []byte) string {
	if raw == nil {
		return "undefined"
	}
	var b strings.Builder
	inStr, esc := false, false
	for _, c := range raw {
		switch {
		case inStr:
			b.WriteByte(c)
			if esc {
				esc = false
			} else if c == '\\' {
				esc = true
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
			b.WriteByte(c)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// KeyArgument is the argument that best says what a tool call did: the path,
// the command, the pattern or the URL; "" when there is none.
func KeyArgument(input []byte) string {
	for _, k := range []string{"path", "file_path", "command", "cmd", "pattern", "url", "query", "description"} {
		if v := Member(input, k); v != nil {
			if s, ok := bstr(v); ok && s != "" {
				return s
			}
			if len(v) > 0 && v[0] == '[' {
				var parts []string
				_ = jscan.Elements(v, func(e []byte) bool { parts = append(parts, jsString(e)); return true })
				return strings.Join(parts, " ")
			}
		}
	}
	return ""
}

// ShortID shortens a uuid for display.
func ShortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return fmt.Sprint(id)
}
