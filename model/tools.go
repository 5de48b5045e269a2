package model

import (
	"strconv"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsjson"
)

// KeyArgument is the argument of a tool call's input that best says what
// the call did: the path, the command, the pattern or the URL; "" when
// there is none.
func KeyArgument(input []byte) string {
	for _, k := range []string{"path", "file_path", "command", "cmd", "pattern", "url", "query", "description"} {
		v := jscan.Member(input, k)
		if v == nil {
			continue
		}
		if s, ok := jscan.Unquote(v); ok && jscan.IsString(v) && s != "" {
			return s
		}
		if len(v) > 0 && v[0] == '[' {
			var parts []string
			_ = jscan.Elements(v, func(e []byte) bool { parts = append(parts, jsString(e)); return true })
			return strings.Join(parts, " ")
		}
	}
	return ""
}

// jsString is String(value) for a raw JSON value.
func jsString(raw []byte) string {
	if jscan.IsString(raw) {
		s, _ := jscan.Unquote(raw)
		return s
	}
	if len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
			return jsjson.FormatNumber(f)
		}
	}
	if len(raw) > 0 && raw[0] == '{' {
		return "[object Object]"
	}
	return string(raw)
}

// ShortID shortens a uuid for display: its first 8 characters.
func ShortID(id string) string {
	n := 0
	for i := range id {
		if n == 8 {
			return strings.Clone(id[:i])
		}
		n++
	}
	return strings.Clone(id) // a short id should not keep its line alive
}
