package pi

import (
	"math"
	"path"
	"strconv"
	"strings"

	"skein/internal/jsjson"
	"skein/internal/utf8js"
	"skein/model"
)

// NormalizeToolCall normalizes a raw tool-call block.
func NormalizeToolCall(block []byte) model.ToolCall {
	var tc model.ToolCall
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
	short := func(p string) string { return shortenHomePath(p, home) }
	orDot := func(s string) string {
		if s == "" {
			return "."
		}
		return s
	}
	switch name {
	case "read":
		display := short(arg("path", "file_path")) + readLineRange(Member(args, "offset"), Member(args, "limit"))
		return "[read: " + display + "]"
	case "write", "edit":
		return "[" + name + ": " + short(arg("path", "file_path")) + "]"
	case "bash":
		raw := arg("command")
		cmd := utf8js.Slice16(TrimJS(strings.NewReplacer("\n", " ", "\t", " ").Replace(raw)), 50)
		if utf8js.Len16(raw) > 50 {
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
	s := "undefined" // JSON.stringify of no arguments
	if args != nil {
		s = string(jsjson.AppendValue(nil, args))
	}
	out := "[" + name + ": " + utf8js.Slice16(s, 40)
	if utf8js.Len16(s) > 40 {
		out += "..."
	}
	return out + "]"
}

// shortenHomePath is pi 1.6.0's: an absolute path inside home (both
// resolved) as ~/ and its path relative to home.
func shortenHomePath(p, home string) string {
	// pi's paths are POSIX paths (Node's path.resolve on Linux and macOS):
	// the path package, not the platform's filepath.
	if home == "" || !path.IsAbs(p) {
		return p
	}
	h, c := path.Clean(home), path.Clean(p)
	if !path.IsAbs(h) {
		return p // pi resolves a relative home against its own folder; skein does not guess
	}
	prefix := strings.TrimSuffix(h, "/") + "/"
	switch {
	case c == h:
		return "~"
	case strings.HasPrefix(c, prefix):
		return "~/" + c[len(prefix):]
	}
	return p
}

// readLineRange is pi 1.6.0's formatReadLineRange: ":start-end" for a read
// tool call's offset and limit (numbers or numeric strings), "" when
// neither is there or one is not a number.
func readLineRange(offset, limit []byte) string {
	isNull := func(raw []byte) bool { return raw == nil || string(raw) == "null" }
	if isNull(offset) && isNull(limit) {
		return ""
	}
	start := 1.0
	if !isNull(offset) {
		f, ok := lineNumber(offset)
		if !ok {
			return ""
		}
		start = f
	}
	if isNull(limit) {
		return ":" + jsjson.FormatNumber(start)
	}
	count, ok := lineNumber(limit)
	if !ok {
		return ""
	}
	out := ":" + jsjson.FormatNumber(start)
	if end := start + count - 1; end != 0 && end == end {
		out += "-" + jsjson.FormatNumber(end)
	}
	return out
}

// lineNumber is pi's parseLineNumber: a finite number, or a non-blank
// string that Number() reads as one.
func lineNumber(raw []byte) (float64, bool) {
	if s, ok := bstr(raw); ok {
		if TrimJS(s) == "" {
			return 0, false
		}
		f, ok := jsStringToNumber(s)
		return f, ok && !math.IsInf(f, 0) && f == f
	}
	f, ok := jsNumberValue(raw)
	return f, ok && !math.IsInf(f, 0)
}

// jsStringToNumber is JavaScript's Number(s) for a string: white space
// trimmed, decimal (with exponent), Infinity, or 0x/0o/0b integers.
func jsStringToNumber(s string) (float64, bool) {
	s = TrimJS(s)
	if s == "" {
		return 0, true
	}
	if len(s) > 2 && s[0] == '0' {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]]
		if base != 0 {
			n, err := strconv.ParseUint(s[2:], base, 64)
			return float64(n), err == nil
		}
	}
	switch s {
	case "Infinity", "+Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// jsTemplate is a raw JSON value as a template literal shows it
// ("undefined" for nil).
func jsTemplate(raw []byte) string {
	if raw == nil {
		return "undefined"
	}
	return jsString(raw)
}

// jsString is String(value) for a raw JSON value.
func jsString(raw []byte) string {
	if s, ok := bstr(raw); ok {
		return s
	}
	if f, ok := jsNumberValue(raw); ok {
		return jsjson.FormatNumber(f)
	}
	if len(raw) > 0 && raw[0] == '{' {
		return "[object Object]"
	}
	return string(raw)
}
